"""The browser app: server-rendered frames whose live parts are small ES modules talking to the public API."""
