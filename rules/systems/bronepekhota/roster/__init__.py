"""Army building for «Бронепехота», by topic (army.py is the ArmyPart and re-exports these names):

- options.py: factions, how an entry's fit and pilots are stored and read, which weapons a vehicle carries;
- costing.py: roster costing and validation, the points balance, pack upgrades;
- views.py: how entries read on the builder's pages.
"""
