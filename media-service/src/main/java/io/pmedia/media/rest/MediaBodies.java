package io.pmedia.media.rest;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.pmedia.media.MediaRequest;
import io.pmedia.media.repository.RequestEventStore;
import io.pmedia.media.service.MediaRequests;
import io.pmedia.media.template.MediaData;

/** Request and response bodies of interface 2.3 to 2.6, with the document's exact names. */
public final class MediaBodies {

    /** The documentation of {@code render}, the same in both forms. */
    static final String RENDER = "beyond the interface: when the video is rendered: now (at once), or on-view (when "
            + "its share-url is first opened, or its status first read; the acceptance's request is PROCESSING "
            + "with its share-url until then; docs/sharing.md, \"Render on first view\")";

    /**
     * Not in the interface's body; sent anyway, it must name the token's client (contracts.md, "Request leniency":
     * 403 otherwise), as on every other body.
     */
    private static final String CLIENT_ID = "the token's client, when sent";

    private MediaBodies() {
    }

    /** Interface 2.3 ({@code POST /media/demo}). */
    @Schema(name = "RealtimeMediaRequest", description = "Interface 2.3. Every field but reference-record-id and "
            + "data is required (400 VALIDATION_ERROR naming the first one missing).")
    public record MediaRequestBody(
            @Schema(required = true, maxLength = 200, description = "unique per client: the idempotency key") @JsonProperty("client-request-id") String clientRequestId,
            @Schema(required = true, maxLength = 200) @JsonProperty("customer-id") String customerId,
            @Schema(required = true, maxLength = 200, description = "the template (GET /templates)") @JsonProperty("use-case-id") String useCaseId,
            @Schema(required = true, maxLength = 200) @JsonProperty("user-id") String userId,
            @Schema(description = "media generation data; may be left out when the template needs none") MediaData data,
            @Schema(maxLength = 200) @JsonProperty("reference-record-id") String referenceRecordId,
            @Schema(enumeration = {
                    "now",
                    "on-view"}, defaultValue = "now", description = RENDER) @JsonInclude(JsonInclude.Include.NON_NULL) String render,
            @Schema(hidden = true, description = CLIENT_ID) @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("client-id") String clientId){
    }

    /** Interface 2.4 ({@code POST /video/demo}). */
    @Schema(name = "RealtimeMediaRequestEarlierForm", description = "Interface 2.4. The lists fill the template "
            + "position by position (its earlier-form mapping, docs/templates.md).")
    public record VideoRequestBody(
            @Schema(required = true, maxLength = 200) @JsonProperty("client-request-id") String clientRequestId,
            @Schema(required = true, maxLength = 200) @JsonProperty("customer-id") String customerId,
            @Schema(required = true, maxLength = 200) @JsonProperty("use-case-id") String useCaseId,
            @Schema(required = true, maxLength = 200) @JsonProperty("user-id") String userId,
            @Schema(maxLength = 200) @JsonProperty("reference-record-id") String referenceRecordId,
            @JsonProperty("phrase-texts") List<String> phraseTexts,
            @JsonProperty("image-texts") List<String> imageTexts,
            @JsonProperty("video-texts") List<String> videoTexts,
            @Schema(description = "http(s) URLs of input images") @JsonProperty("image-urls") List<String> imageUrls,
            @Schema(description = "http(s) URLs of input videos") @JsonProperty("video-urls") List<String> videoUrls,
            @Schema(enumeration = {
                    "now",
                    "on-view"}, defaultValue = "now", description = RENDER) @JsonInclude(JsonInclude.Include.NON_NULL) String render,
            @Schema(hidden = true, description = CLIENT_ID) @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("client-id") String clientId){
    }

    /** Interface 2.5. */
    @Schema(name = "RealtimeMediaAcceptance", description = "Interface 2.5. FAILURE: the request cannot be served "
            + "(the message says why); its service-request-id reads FAILURE with the same message.")
    public record Acceptance(
            @Schema(required = true, enumeration = {
                    "SUCCESS", "FAILURE"}) String status,
            @Schema(required = true) String message,
            @Schema(required = true) @JsonProperty("client-request-id") String clientRequestId,
            @Schema(required = true, description = "the transactionId of GET /status/{transactionId}") @JsonProperty("service-request-id") String serviceRequestId,
            @Schema(description = "beyond the interface: the share link of a request rendered on view (render on-view), "
                    + "out before any render; its first open, or the first read of the request's status, renders it") @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("share-url") String shareUrl){
    }

    /** Interface 2.6: every field present, {@code null} where not (yet) known. */
    @Schema(name = "RealtimeMediaStatus", description = "Interface 2.6. video-url and image-url are null until the "
            + "status is SUCCESS; they are presigned (or CDN) URLs made when the status is read.")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record MediaStatusBody(
            @Schema(required = true, enumeration = {
                    "PROCESSING", "SUCCESS", "FAILURE"}) String status,
            @Schema(required = true, nullable = true) String message,
            @Schema(required = true, nullable = true, description = "the MP4 (H.264 + AAC)") @JsonProperty("video-url") String videoUrl,
            @Schema(required = true, nullable = true, description = "the JPEG thumbnail; null until SUCCESS") @JsonProperty("image-url") String imageUrl,
            @Schema(description = "beyond the interface: every output of a template that lists several, by name "
                    + "(the first is video-url); only on SUCCESS") @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> renditions,
            @Schema(description = "beyond the interface: the WebVTT captions of the speech layers; only on SUCCESS "
                    + "of a template with speech") @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("captions-url") String captionsUrl,
            @Schema(description = "beyond the interface: an HLS playlist of the video that plays while it renders "
                    + "(EVENT, about 1 s segments), complete (VOD) once it is ready; not on FAILURE") @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("stream-url") String streamUrl,
            @Schema(description = "beyond the interface: the video's durable share page (docs/sharing.md), while "
                    + "the link is live: on SUCCESS, and from acceptance for a request rendered on view") @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("share-url") String shareUrl){
    }

    /**
     * One request of {@code GET /media/requests} (beyond the interface): its 2.6 status fields, what was asked, and
     * when it was made and ended; null where not (yet) known.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"service-request-id", "client-request-id", "status", "message", "video-url", "image-url",
            "use-case-id", "template-id", "template-version", "customer-id", "user-id", "reference-record-id",
            "created-at", "ended-at", "render-seconds", "duration-seconds"})
    public record MediaRequestItem(@JsonProperty("service-request-id") UUID serviceRequestId,
            @JsonProperty("client-request-id") String clientRequestId, String status, String message,
            @JsonProperty("video-url") String videoUrl, @JsonProperty("image-url") String imageUrl,
            @JsonProperty("use-case-id") String useCaseId, @JsonProperty("template-id") UUID templateId,
            @JsonProperty("template-version") Integer templateVersion,
            @JsonProperty("customer-id") String customerId, @JsonProperty("user-id") String userId,
            @JsonProperty("reference-record-id") String referenceRecordId,
            @JsonProperty("created-at") Instant createdAt, @JsonProperty("ended-at") Instant endedAt,
            @JsonProperty("render-seconds") Double renderSeconds,
            @JsonProperty("duration-seconds") Double durationSeconds) {

        public static MediaRequestItem of(MediaRequests.Listed listed) {
            MediaRequest r = listed.request();
            MediaRequests.Status s = listed.status();
            return new MediaRequestItem(r.id, r.clientRequestId, s.status(), s.message(), s.videoUrl(),
                    s.imageUrl(), r.useCaseId, r.templateId, r.templateVersion, r.customerId, r.userId,
                    r.referenceRecordId, r.createdAt, r.completedAt,
                    r.renderMillis == null ? null : r.renderMillis / 1000.0, r.durationSeconds);
        }
    }

    /** {@code GET /media/requests/{id}/events} (beyond the interface): what happened to a request, oldest first. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"service-request-id", "items"})
    public record Timeline(@JsonProperty("service-request-id") String serviceRequestId, List<TimelineEvent> items) {

        static Timeline of(String serviceRequestId, List<RequestEventStore.RequestEvent> events) {
            return new Timeline(serviceRequestId, events.stream()
                    .map(event -> new TimelineEvent(event.at(), event.kind(), event.status(), event.message()))
                    .toList());
        }
    }

    /** One moment: a status published ({@code status}), a render job submitted, or a share-link change. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"at", "kind", "status", "message"})
    public record TimelineEvent(String at, String kind, String status, String message) {
    }
}
