from django.conf import settings
from django.urls import path

from taikai.api import (  # noqa: F401  (they register operations)
    archetypes_ops,
    docs,
    judging_ops,
    limits_ops,
    log_ops,
    manage,
    public,
    stream,
    team_ops,
    views,
    writes,
)
from taikai.api.base import api

if settings.BENCH_ENDPOINTS:
    from taikai.api import bench_ops  # noqa: F401  (the bench's no-op report)

api.add_router("", public.router)  # writes, manage and judging_ops add their operations to the same router

urlpatterns = [
    path("api/v1/events/<int:event_id>/stream", stream.event_stream, name="api_event_stream"),
    path("api/v1/docs", docs.docs, name="api_docs"),
    path("api/v1/docs/assets/<str:name>", docs.asset, name="api_docs_asset"),
    path("api/v1/", api.urls),
    path("e/<int:event_id>/charts/", views.charts_page, name="event_charts"),
    path("e/<int:event_id>/charts/<str:name>.svg", views.chart_svg, name="event_chart_svg"),
    path("events/<int:event_id>/report/", views.report, name="event_report"),
    path("events/<int:event_id>/api-tokens/", views.tokens, name="api_tokens"),
]
