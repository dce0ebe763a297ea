"""The SQLite database backend of the embedded default (`make run`): see base.py."""
