# The API's types (TypedDicts and aliases generated from docs/openapi.yaml into _generated.py),
# for annotations: `from paraph.types import Submission, CreateSubmissionFromHtmlBody`.
from ._generated import *  # noqa: F403
from ._generated import WEBHOOK_EVENT_TYPES, WebhookEvent  # noqa: F401
