"""Reliability and security: login throttling records, backups and restores."""
