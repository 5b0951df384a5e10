"""The JSON API (/api/v1/), the live event stream, charts and the organizer's report, thin over the services."""
