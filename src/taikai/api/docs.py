"""Browsable API docs that work offline: Swagger UI from the django-ninja package, served by us."""

from __future__ import annotations

import json
from pathlib import Path

import ninja
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import escape

ASSETS = Path(ninja.__file__).parent / "static" / "ninja"
ALLOWED = {
    "swagger-ui.css": "text/css",
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui-init.js": "text/javascript",
    "favicon.png": "image/png",
}

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="stylesheet" href="{assets}swagger-ui.css"><link rel="icon" href="{assets}favicon.png"></head>
<body data-csrf-token="" data-api-csrf="">
<script type="application/json" id="swagger-settings">{settings}</script>
<div id="swagger-ui"></div>
<noscript><p>The schema: <a href="{schema}">{schema}</a></p></noscript>
<script src="{assets}swagger-ui-bundle.js"></script>
<script src="{assets}swagger-ui-init.js"></script>
</body></html>
"""


def docs(request: HttpRequest) -> HttpResponse:
    schema = reverse("api-v1:openapi-json")
    settings = {"url": schema, "layout": "BaseLayout", "deepLinking": True}
    assets = reverse("api_docs_asset", args=["x"])[:-1]
    html = PAGE.format(title="taikai API", assets=escape(assets), schema=escape(schema), settings=json.dumps(settings))
    return HttpResponse(html)


def asset(request: HttpRequest, name: str) -> HttpResponse:
    if name not in ALLOWED:
        raise Http404
    response = HttpResponse((ASSETS / name).read_bytes(), content_type=ALLOWED[name])
    response["Cache-Control"] = "public, max-age=86400"
    return response
