"""Schemathesis against the API's own OpenAPI schema (/api/schema/), in process through the WSGI app: a bounded
run (MAX_EXAMPLES per operation) as a logged-in user, where no answer may be a server error and every answer must
be documented (status code, content type, body schema). The shared error answers are documented once, in
config/schema.py (issue #18)."""

from __future__ import annotations

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import override_settings
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token
from schemathesis import checks

MAX_EXAMPLES = 8
FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]

schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
schema.app = get_wsgi_application()
# Random inputs only (the fuzzing phase, bounded by MAX_EXAMPLES); the coverage phase's hundreds of boundary cases
# per operation are the abuse corpus's job (tests/test_abuse_corpus.py).
schema.config.phases.coverage.enabled = False


@pytest.fixture
def token(db):
    user = get_user_model().objects.create_user(username="fuzzer", password=None)
    # As Django's test client does: the test's transaction must outlive each request (no connection closing).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield Token.objects.create(user=user).key
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
@override_settings(PASSWORD_HASHERS=FAST_HASHER)
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure is reported as found
)
def test_the_api_keeps_its_schema(case, token):
    case.call_and_validate(
        headers={"Authorization": f"Token {token}"},
        checks=[
            checks.not_a_server_error,
            checks.status_code_conformance,
            checks.content_type_conformance,
            checks.response_schema_conformance,
        ],
    )
