"""The event's log in words (issue 22): who changed what, when, from which value to which, and why.

It reads ``taikai.audit`` entries written by every app (events, judging, decks, tokens, webhooks), so it sits
above the apps and below the edges (issue 28): ``reads`` chooses the entries a reader may see, ``words`` says
each one in the reader's language, ``subjects`` and ``values`` name what an entry is about. The web's pages
(``taikai.web.log.views``) and the API's read (``taikai.api.log_ops``) both read it.
"""
