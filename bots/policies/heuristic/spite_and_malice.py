"""Spite and Malice: the shared patience judgement (`patience.PatienceBot`) played by this game's rules.

What differs reaches the bot through the game's `Variant`: jokers may open a pile but never stand for a
Two, Aces and then Twos are compulsory (a plan may not stop while one is pending), and the discard is
optional once a card has reached the centre: the bot then discards only where the card sits well (never
discarding at all lost 83 of 100 self-play games). The default weights serve both games: tuning them
apart (joker cost 2 against 3.5, danger 6 to 12) made no measurable difference in self-play.
"""

from bots.policies.heuristic.patience import PatienceBot
from games.rules.spite_and_malice.rules import VARIANT

BOT = PatienceBot(VARIANT)
choose = BOT.choose
