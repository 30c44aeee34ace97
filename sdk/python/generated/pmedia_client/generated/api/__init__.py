# flake8: noqa

# import apis into api package
from pmedia_client.generated.api.analytics_api import AnalyticsApi
from pmedia_client.generated.api.authentication_api import AuthenticationApi
from pmedia_client.generated.api.batch_media_api import BatchMediaApi
from pmedia_client.generated.api.campaigns_api import CampaignsApi
from pmedia_client.generated.api.operator_api import OperatorApi
from pmedia_client.generated.api.realtime_media_api import RealtimeMediaApi
from pmedia_client.generated.api.share_pages_api import SharePagesApi
from pmedia_client.generated.api.templates_api import TemplatesApi
from pmedia_client.generated.api.usage_api import UsageApi
from pmedia_client.generated.api.virtual_try_on_api import VirtualTryOnApi
from pmedia_client.generated.api.webhooks_api import WebhooksApi

