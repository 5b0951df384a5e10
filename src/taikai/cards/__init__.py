"""Card database and Forbidden/Limited lists: import, name look-up (ja/en), deck file formats."""
