package io.pmedia.media.rest;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.media.template.MediaData;

/** Request and response bodies of interface 2.3 to 2.6, with the document's exact names. */
public final class MediaBodies {

    private MediaBodies() {
    }

    /** Interface 2.3 ({@code POST /media/demo}). */
    public record MediaRequestBody(
            @JsonProperty("client-request-id") String clientRequestId,
            @JsonProperty("customer-id") String customerId,
            @JsonProperty("use-case-id") String useCaseId,
            @JsonProperty("user-id") String userId,
            MediaData data,
            @JsonProperty("reference-record-id") String referenceRecordId) {
    }

    /** Interface 2.4 ({@code POST /video/demo}). */
    public record VideoRequestBody(
            @JsonProperty("client-request-id") String clientRequestId,
            @JsonProperty("customer-id") String customerId,
            @JsonProperty("use-case-id") String useCaseId,
            @JsonProperty("user-id") String userId,
            @JsonProperty("reference-record-id") String referenceRecordId,
            @JsonProperty("phrase-texts") List<String> phraseTexts,
            @JsonProperty("image-texts") List<String> imageTexts,
            @JsonProperty("video-texts") List<String> videoTexts,
            @JsonProperty("image-urls") List<String> imageUrls,
            @JsonProperty("video-urls") List<String> videoUrls) {
    }

    /** Interface 2.5. */
    public record Acceptance(String status, String message,
            @JsonProperty("client-request-id") String clientRequestId,
            @JsonProperty("service-request-id") String serviceRequestId) {
    }

    /** Interface 2.6: every field present, {@code null} where not (yet) known. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record MediaStatusBody(String status, String message, @JsonProperty("video-url") String videoUrl,
            @JsonProperty("image-url") String imageUrl) {
    }
}
