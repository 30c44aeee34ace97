package io.pmedia.notifier;

/**
 * What is counted of a vendor's use of the platform (docs/usage.md): the name a counter is stored under, and where it
 * stands in the usage document ({@code group.field}, or a top-level {@code field}). Counts are whole numbers; seconds
 * are not.
 */
public enum UsageMetric {
    REQUESTS_SUCCEEDED("requests.succeeded", "requests", "succeeded", true), REQUESTS_FAILED("requests.failed",
            "requests", "failed",
            true), RENDERS_SUCCEEDED("renders.succeeded", "renders", "succeeded", true), RENDERS_FAILED(
                    "renders.failed", "renders", "failed",
                    true), VIDEO_SECONDS("video-seconds", null, "video-seconds", false), RENDER_SECONDS(
                            "render-seconds", null, "render-seconds",
                            false), BATCH_TASKS_COMPLETED("batch-tasks.completed", "batch-tasks", "completed",
                                    true), BATCH_TASKS_FAILED("batch-tasks.failed", "batch-tasks", "failed",
                                            true), BATCH_ROWS("batch-rows", null, "batch-rows", true), TRYONS_SUCCEEDED(
                                                    "try-ons.succeeded", "try-ons", "succeeded",
                                                    true), TRYONS_FAILED("try-ons.failed", "try-ons", "failed",
                                                            true), STORAGE_BYTES("storage-bytes", null, "storage-bytes",
                                                                    true), WEBHOOK_ATTEMPTS("webhook-attempts",
                                                                            "webhook-deliveries", "attempts",
                                                                            true), WEBHOOK_DELIVERED(
                                                                                    "webhook-delivered",
                                                                                    "webhook-deliveries", "delivered",
                                                                                    true), WEBHOOK_FAILED(
                                                                                            "webhook-failed",
                                                                                            "webhook-deliveries",
                                                                                            "failed", true);

    private final String stored;
    private final String group;
    private final String field;
    private final boolean count;

    UsageMetric(String stored, String group, String field, boolean count) {
        this.stored = stored;
        this.group = group;
        this.field = field;
        this.count = count;
    }

    /** The name in {@code usage_counter.metric} (the webhook ones are written by DeliveryStore's SQL). */
    public String stored() {
        return stored;
    }

    /** The object it is a field of in the usage document, or null for a top-level field. */
    public String group() {
        return group;
    }

    public String field() {
        return field;
    }

    /** A whole number (shown without a fraction). */
    public boolean count() {
        return count;
    }

    /** The metric stored as {@code name}, or null for one this version does not know. */
    public static UsageMetric ofStored(String name) {
        for (UsageMetric metric : values()) {
            if (metric.stored.equals(name)) {
                return metric;
            }
        }
        return null;
    }
}
