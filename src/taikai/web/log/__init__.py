"""The event's log read by people (issue 22): who changed what, when, from which value to which, and why.

It reads ``taikai.audit`` entries written by every app (events, judging, decks, the API), so it lives in the top
layer: ``reads`` chooses the entries a reader may see, ``words`` says each one in the reader's language, ``views``
are the staff page and the player's page; the API read is ``taikai.api.log_ops``.
"""
