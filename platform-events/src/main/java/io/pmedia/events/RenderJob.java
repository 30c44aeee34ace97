package io.pmedia.events;

import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A video to render, from any producer (a realtime request, a batch row): the template snapshot, the customer's data,
 * where the outputs go and where the result goes. Published on its {@link RenderLane lane}'s topic (key: job id); the
 * render workers answer with a {@link RenderResult} of the same {@code job-id} on {@code reply-to}.
 *
 * @param jobId unique per job, the correlation id of its result (realtime: the service-request-id)
 * @param producer who submitted it ({@code media}, {@code batch}); copied into the result
 * @param replyTo topic of the result; null: {@link Topics#RENDER_RESULTS}. Must start with {@code pmedia.}
 * @param template the definition of {@code template-id} version {@code template-version} as media-service stores it
 *        (docs/templates.md), carried whole so a worker needs no database and a later version cannot change an
 *        accepted request; opaque to every other producer, which pins it from media-service
 * @param input the customer's data
 * @param outputPrefix object-store key prefix in the client's namespace; the worker writes {@code video.mp4} and
 *        {@code thumbnail.jpg} under it
 * @param timeLimitSeconds longest the render may take; null: the worker's configured limit
 * @param lane the queue it waits in; null: {@link RenderLane#REALTIME}. Workers take the lane from the topic a job
 *        came from, never from this field
 * @param templateShared whether the template is the operator's (shared), whose lottie layers name shared motions
 *        only; false: the vendor's own template, whose names are the vendor's motions first; null (a producer that
 *        predates the field): as false
 */
public record RenderJob(
        @JsonProperty("job-id") String jobId,
        String producer,
        @JsonProperty("reply-to") String replyTo,
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("template-id") UUID templateId,
        @JsonProperty("template-version") int templateVersion,
        JsonNode template,
        RenderInput input,
        @JsonProperty("output-prefix") String outputPrefix,
        @JsonProperty("time-limit-seconds") Integer timeLimitSeconds,
        RenderLane lane,
        @JsonProperty("template-shared") Boolean templateShared) implements EventPayload {

    /**
     * Where a render that streams (every job of the realtime lane: a person waits for it) writes its HLS stream,
     * under its {@code output-prefix}: the segments under {@link #STREAM_PREFIX}, the playlist a player starts from
     * at {@link #STREAM_PLAYLIST} (docs/media.md, "Progressive delivery").
     */
    public static final String STREAM_PREFIX = "stream/";
    public static final String STREAM_PLAYLIST = STREAM_PREFIX + "index.m3u8";

    /** Results go only to pmedia's own topics, whatever a job says. */
    public static final String REPLY_PREFIX = "pmedia.";

    /**
     * The reply topics of pmedia's own producers (media-service's realtime requests, batch-service's rows): what the
     * render workers' KafkaUser may write in a cluster (deploy-checks), and what a worker expects; another reply-to
     * under {@link #REPLY_PREFIX} is rendered but logged, as its result would be refused there.
     */
    public static final Set<String> REPLY_TOPICS = Set.of(Topics.RENDER_RESULTS,
            Topics.BATCH_RENDER_RESULTS);

    public RenderJob {
        lane = lane == null ? RenderLane.REALTIME : lane;
    }

    /** A job of the realtime lane, of a vendor's own template. */
    public RenderJob(String jobId, String producer, String replyTo, UUID clientId, UUID templateId,
            int templateVersion, JsonNode template, RenderInput input, String outputPrefix, Integer timeLimitSeconds) {
        this(jobId, producer, replyTo, clientId, templateId, templateVersion, template, input, outputPrefix,
                timeLimitSeconds, RenderLane.REALTIME, false);
    }

    /** Whose motions the template's lottie layers name: null for the shared ones only, else the rendering vendor. */
    @JsonIgnore
    public UUID motionsOwner() {
        return Boolean.TRUE.equals(templateShared) ? null : clientId;
    }

    /** The topic its result goes to. */
    @JsonIgnore
    public String resultTopic() {
        return replyTo == null || replyTo.isBlank() ? Topics.RENDER_RESULTS : replyTo;
    }

    @Override
    public String topic() {
        return lane.topic();
    }

    @Override
    public String type() {
        return Topics.RENDER_JOB_REQUESTED;
    }

    @Override
    public String key() {
        return jobId;
    }
}
