// Filled in by the page's module (work in progress).
