"""The card tests read the real card data in ../shared/data (tests.factories names the files): skip without it."""

from __future__ import annotations

import pytest

from tests.factories import DATA

if not DATA.is_dir():  # pragma: no cover
    pytest.skip("../shared/data is not available", allow_module_level=True)
