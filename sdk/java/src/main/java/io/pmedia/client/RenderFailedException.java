package io.pmedia.client;

import io.pmedia.client.model.MediaStatus;

/**
 * A realtime render that ended in {@code FAILURE}: refused at acceptance (the message names the reason, e.g. a
 * missing personalization field) or failed while rendering. {@link #getStatus()} is the last status read, if any.
 */
public class RenderFailedException extends PmediaException {

    private static final long serialVersionUID = 1L;

    private final String serviceRequestId;
    private final transient MediaStatus status;

    public RenderFailedException(String message, String serviceRequestId, MediaStatus status) {
        super(message);
        this.serviceRequestId = serviceRequestId;
        this.status = status;
    }

    /** The service-request-id of the failed request (its transactionId for GET /status). */
    public String getServiceRequestId() {
        return serviceRequestId;
    }

    /** The status that reported the failure; null when the request was refused at acceptance. */
    public MediaStatus getStatus() {
        return status;
    }
}
