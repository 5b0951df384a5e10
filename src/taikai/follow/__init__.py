"""The public follower (issue 29): a second taikai, on the internet, that holds a read-only copy of the venue's
events and queues what players do there until the venue, the only writer, applies it."""
