"""Number and date formats per language, over Django's own (FORMAT_MODULE_PATH)."""
