"""A small game that exists only for tests: it has what the real books need and «Бронепехота» never did.

«Secret orders»: each side fields units with a strength. Every turn both sides give an order in secret (which of
their units attacks which enemy unit); nobody sees the other's order until both are given. Then the orders are
revealed together and resolved in side order; each attack asks the *target's owner* a question mid-test: take
cover (the attack rolls d6 and hits on 5+) or return fire (hits on 3+, but the target loses 1 strength first).
The owner answers on their own phone and may type in the die. A side with no strength left loses.

Registered only by the tests (tests/conftest.py), never in settings.
"""
