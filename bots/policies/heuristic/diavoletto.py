"""Diavoletto: the shared patience judgement (`patience.PatienceBot`) played by this game's rules.

What differs reaches the bot through the game's `Variant`: only two jokers, which stand for anything but
an Ace (so they never open a pile but may be a Two, which changes both the plays searched and the
opponent's reach), an Ace that may wait but must be played before the turn ends (a plan may not stop
while one is in hand or on the goal), and a discard that is always compulsory.
"""

from bots.policies.heuristic.patience import PatienceBot
from games.rules.diavoletto.rules import VARIANT

BOT = PatienceBot(VARIANT)
choose = BOT.choose
