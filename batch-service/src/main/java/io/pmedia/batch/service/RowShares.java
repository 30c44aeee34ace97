package io.pmedia.batch.service;

import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.batch.BatchRow;
import io.pmedia.batch.BatchTask;
import io.pmedia.batch.RowStatus;
import io.pmedia.events.RenderJob;
import io.pmedia.events.SharePage;
import io.pmedia.events.SharedVideo;

/**
 * The share links of one task's rendered rows (docs/sharing.md). A row's share id is HMAC-SHA256 of its row number
 * under the task's random key, 18 bytes in URL-safe base64: the same every time the output file is written, and
 * unguessable without the key, which never leaves batch-service's database. The rows' pages go to engagement-service
 * as {@link SharedVideo} events of up to {@value #ROWS_PER_EVENT} rows.
 */
final class RowShares {

    static final int ROWS_PER_EVENT = 200;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final BatchTask task;
    private final JsonNode template;
    private final ObjectMapper mapper;
    private final String baseUrl;
    private final java.time.Instant expiresAt;
    private final Mac mac;
    private final List<SharedVideo.Video> pending = new ArrayList<>();

    RowShares(BatchTask task, JsonNode template, ObjectMapper mapper, String baseUrl, java.time.Instant expiresAt) {
        this.task = task;
        this.template = template;
        this.mapper = mapper;
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.expiresAt = expiresAt;
        try {
            this.mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(task.shareKey, "HmacSHA256"));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new task's key: 32 random bytes. */
    static byte[] newKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return key;
    }

    String shareId(int rowNo) {
        byte[] digest = mac.doFinal(("row:" + rowNo).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 18));
    }

    /**
     * The share URL of a row with a link, its page queued for the next event: a rendered row plays its video; a row
     * rendered on view has none yet (its render is to come, or it failed).
     */
    String add(BatchRow row) {
        String shareId = shareId(row.rowNo());
        SharePage page = SharePage.of(template, fields(row));
        JsonNode canvas = template.path("canvas");
        boolean video = row.status() == RowStatus.SUCCESS;
        SharedVideo.Render render = video
                ? null
                : row.status() == RowStatus.FAILURE ? SharedVideo.Render.FAILED : SharedVideo.Render.ON_VIEW;
        pending.add(new SharedVideo.Video(shareId, SharedVideo.State.ACTIVE, row.rowNo(), row.userId(), page.title(),
                page.cta(), page.branding(), video ? row.videoKey() : null, video ? row.thumbnailKey() : null, null,
                canvas.hasNonNull("width") ? canvas.get("width").asInt() : null,
                canvas.hasNonNull("height") ? canvas.get("height").asInt() : null, null, task.updatedAt, expiresAt,
                render, video ? null : RenderJobs.outputPrefix(task, row.rowNo()) + RenderJob.STREAM_PLAYLIST));
        return baseUrl + "/v/" + shareId;
    }

    /** The queued pages as one event once there are {@value #ROWS_PER_EVENT} (or {@code all}); null otherwise. */
    SharedVideo take(boolean all) {
        if (pending.isEmpty() || !all && pending.size() < ROWS_PER_EVENT) {
            return null;
        }
        SharedVideo event = new SharedVideo(task.clientId, SharedVideo.Source.batch, null, task.id, task.campaignId,
                task.templateId, task.templateVersion, template.path("use-case-id").asText(null),
                List.copyOf(pending));
        pending.clear();
        return event;
    }

    /** The row's fields as text: what the template's placeholders are filled with. */
    private Map<String, String> fields(BatchRow row) {
        Map<String, String> fields = new java.util.HashMap<>();
        if (row.input() == null) {
            return fields;
        }
        try {
            JsonNode input = mapper.readTree(row.input());
            input.path("fields").fields().forEachRemaining(field -> fields.put(field.getKey(),
                    field.getValue().asText()));
        } catch (java.io.IOException e) {
            // A row's input was checked when it was read; an unreadable one fills nothing.
        }
        return fields;
    }
}
