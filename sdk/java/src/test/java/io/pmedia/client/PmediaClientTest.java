package io.pmedia.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.pmedia.client.PmediaApiException.NotFoundException;
import io.pmedia.client.PmediaApiException.ServiceUnavailableException;
import io.pmedia.client.model.MediaData;
import io.pmedia.client.model.MediaRequest;
import io.pmedia.client.model.MediaStatus;
import io.pmedia.client.model.TaskCreateRequest;

/** The hand-written layer against a local double of the API; the same calls against the stack: sdk/java/examples. */
class PmediaClientTest {

    private static final String PROCESSING = "{\"status\":\"PROCESSING\",\"message\":null,\"video-url\":null,"
            + "\"image-url\":null,\"stream-url\":\"https://s/p.m3u8\"}";

    @Test
    void aTokenIsFetchedOnceCachedAndSentToEveryOperationThatTakesIt() throws Exception {
        try (FakeApi api = new FakeApi(request -> request.path.equals("/auth/token")
                ? FakeApi.token(1, 3600)
                : FakeApi.json(200, "[]"))) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s").build();
            pmedia.templates().listTemplates();
            pmedia.templates().listTemplates();
            assertThat(api.count("/auth/token")).isEqualTo(1);
            FakeApi.Seen asked = api.seen.get(0);
            assertThat(asked.body).contains("\"client_id\":\"c\"", "\"client_secret\":\"s\"");
            assertThat(asked.header("Authorization")).isNull();
            assertThat(api.seen.subList(1, 3)).allSatisfy(call -> assertThat(call.header("Authorization"))
                    .isEqualTo("Bearer token-1"));
        }
    }

    @Test
    void aTokenIsRefreshedBeforeItExpires() throws Exception {
        AtomicInteger issued = new AtomicInteger();
        MutableClock clock = new MutableClock();
        try (FakeApi api = new FakeApi(request -> request.path.equals("/auth/token")
                ? FakeApi.token(issued.incrementAndGet(), 3600)
                : FakeApi.json(200, "[]"))) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s").clock(clock).build();
            pmedia.templates().listTemplates();
            clock.now = clock.now.plus(Duration.ofMinutes(54)); // refreshed 5 min (at most 10 %) before expiry: at 55 min
            pmedia.templates().listTemplates();
            assertThat(issued).hasValue(1);
            clock.now = clock.now.plusSeconds(60);
            pmedia.templates().listTemplates();
            assertThat(issued).hasValue(2);
            assertThat(api.seen.get(api.seen.size() - 1).header("Authorization")).isEqualTo("Bearer token-2");
        }
    }

    @Test
    void a401ToACachedTokenFetchesANewOneAndTriesOnceMore() throws Exception {
        AtomicInteger issued = new AtomicInteger();
        try (FakeApi api = new FakeApi(request -> {
            if (request.path.equals("/auth/token")) {
                return FakeApi.token(issued.incrementAndGet(), 3600);
            }
            return "Bearer token-1".equals(request.header("Authorization"))
                    ? FakeApi.error(401, "UNAUTHORIZED", "token revoked", Map.of())
                    : FakeApi.json(200, "[]");
        })) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s").build();
            assertThat(pmedia.templates().listTemplates()).isEmpty();
            assertThat(issued).hasValue(2);
        }
    }

    @Test
    void a429OnAnIdempotentRequestIsRetriedAfterRetryAfter() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (FakeApi api = new FakeApi(request -> {
            if (request.path.equals("/auth/token")) {
                return FakeApi.token(1, 3600);
            }
            return calls.incrementAndGet() == 1
                    ? FakeApi.error(429, "RATE_LIMITED", "slow down", Map.of("Retry-After", "1"))
                    : FakeApi.json(200, PROCESSING);
        })) {
            List<Duration> waits = new CopyOnWriteArrayList<>();
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s")
                    .retryPolicy(RetryPolicy.defaults()
                            .withListener((method, uri, status, wait, attempt) -> waits.add(wait)))
                    .build();
            assertThat(pmedia.realtime().getMediaStatus("r-1").getStatus())
                    .isEqualTo(MediaStatus.StatusEnum.PROCESSING);
            assertThat(waits).containsExactly(Duration.ofSeconds(1));
            List<FakeApi.Seen> polls = new ArrayList<>();
            api.seen.stream().filter(request -> request.path.equals("/status/r-1")).forEach(polls::add);
            assertThat(polls).hasSize(2);
            assertThat(Duration.ofNanos(polls.get(1).at - polls.get(0).at)).isGreaterThan(Duration.ofMillis(990));
        }
    }

    @Test
    void a503OnABatchTaskCreateIsNotRetriedAndReachesTheCallerAsATypedError() throws Exception {
        try (FakeApi api = new FakeApi(request -> request.path.equals("/auth/token")
                ? FakeApi.token(1, 3600)
                : FakeApi.error(503, "SERVICE_UNAVAILABLE", "the batch service is unavailable",
                        Map.of("Retry-After", "5")))) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s").build();
            TaskCreateRequest create = new TaskCreateRequest().campaignId("x").templateId(UUID.randomUUID())
                    .filePath("s3://b/k").rowCount(1).expectedOutputDuration(1);
            assertThatThrownBy(() -> pmedia.createTask(create)).isInstanceOfSatisfying(
                    ServiceUnavailableException.class, e -> {
                        assertThat(e.getStatusCode()).isEqualTo(503);
                        assertThat(e.getCode()).isEqualTo("SERVICE_UNAVAILABLE");
                        assertThat(e.getMessage()).isEqualTo("the batch service is unavailable");
                        assertThat(e.getRetryAfter()).contains(Duration.ofSeconds(5));
                    });
            assertThat(api.count("/media/task/create")).isEqualTo(1);
        }
    }

    @Test
    void anErrorAnswerOfAGeneratedOperationIsATypedExceptionWithTheErrorBody() throws Exception {
        try (FakeApi api = new FakeApi(request -> request.path.equals("/auth/token")
                ? FakeApi.token(1, 3600)
                : FakeApi.error(404, "NOT_FOUND", "media request not found: nope", Map.of()))) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s").build();
            assertThatThrownBy(() -> pmedia.realtime().getMediaStatus("nope")).isInstanceOfSatisfying(
                    NotFoundException.class, e -> {
                        assertThat(e.getCode()).isEqualTo("NOT_FOUND");
                        assertThat(e.getError().getMessage()).isEqualTo("media request not found: nope");
                        assertThat(e.getError().getTimestamp()).isNotNull();
                    });
        }
    }

    @Test
    void renderVideoWaitsTellsEachStatusAndReturnsSuccess() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        try (FakeApi api = new FakeApi(request -> {
            switch (request.path) {
                case "/auth/token" :
                    return FakeApi.token(1, 3600);
                case "/media/demo" :
                    return FakeApi.json(200, "{\"status\":\"SUCCESS\",\"message\":\"accepted\","
                            + "\"client-request-id\":\"x\",\"service-request-id\":\"r-1\"}");
                default :
                    return FakeApi.json(200, polls.incrementAndGet() < 3
                            ? PROCESSING
                            : "{\"status\":\"SUCCESS\",\"message\":null,\"video-url\":\"https://s/v.mp4\","
                                    + "\"image-url\":\"https://s/t.jpg\",\"stream-url\":\"https://s/p.m3u8\","
                                    + "\"renditions\":{\"webm\":\"https://s/v.webm\"}}");
            }
        })) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s").build();
            List<MediaStatus.StatusEnum> seen = new CopyOnWriteArrayList<>();
            MediaStatus video = pmedia.renderVideo(
                    new MediaRequest().clientRequestId("x").customerId("c").useCaseId("demo").userId("u")
                            .data(new MediaData().personalizationFields(Map.of("name", "Ada"))),
                    WaitOptions.<MediaStatus>defaults().intervals(Duration.ofMillis(10), Duration.ofMillis(20))
                            .onProgress(status -> seen.add(status.getStatus())));
            assertThat(video.getVideoUrl()).isEqualTo("https://s/v.mp4");
            assertThat(video.getStreamUrl()).isEqualTo("https://s/p.m3u8");
            assertThat(video.getRenditions()).containsEntry("webm", "https://s/v.webm");
            assertThat(seen).containsExactly(MediaStatus.StatusEnum.PROCESSING, MediaStatus.StatusEnum.PROCESSING,
                    MediaStatus.StatusEnum.SUCCESS);
            assertThat(api.seen.stream().filter(request -> request.path.equals("/media/demo")).findFirst()
                    .orElseThrow().body).contains("\"client-request-id\":\"x\"",
                            "\"personalization_fields\":{\"name\":\"Ada\"}");
        }
    }

    @Test
    void renderVideoThrowsRenderFailedWhenTheRequestIsRefused() throws Exception {
        try (FakeApi api = new FakeApi(request -> request.path.equals("/auth/token")
                ? FakeApi.token(1, 3600)
                : FakeApi.json(200, "{\"status\":\"FAILURE\",\"message\":\"personalization field name is required\","
                        + "\"client-request-id\":\"x\",\"service-request-id\":\"r-2\"}"))) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s").build();
            assertThatThrownBy(() -> pmedia.renderVideo(
                    new MediaRequest().clientRequestId("x").customerId("c").useCaseId("demo").userId("u")))
                    .isInstanceOf(RenderFailedException.class)
                    .hasMessageContaining("personalization field name is required");
        }
    }

    @Test
    void uploadBatchFilePutsToThePresignedUrlWithoutTheToken() throws Exception {
        try (FakeApi store = new FakeApi(request -> FakeApi.json(200, null));
                FakeApi api = new FakeApi(request -> request.path.equals("/auth/token")
                        ? FakeApi.token(1, 3600)
                        : FakeApi.json(200, "{\"file-path\":\"s3://b/inputs/c/1/rows.csv\",\"upload-url\":\""
                                + store.url() + "/b/inputs/c/1/rows.csv?X-Amz-Signature=x\",\"expires-in\":900}"))) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s").build();
            String path = pmedia.uploadBatchFile("rows.csv",
                    "user-id,name\nu-1,Ada\n".getBytes(StandardCharsets.UTF_8));
            assertThat(path).isEqualTo("s3://b/inputs/c/1/rows.csv");
            FakeApi.Seen put = store.seen.get(0);
            assertThat(put.method).isEqualTo("PUT");
            assertThat(put.body).isEqualTo("user-id,name\nu-1,Ada\n");
            assertThat(put.header("Authorization")).isNull();
        }
    }

    @Test
    void theApiKeyAloneServesTheStatusOperation() throws Exception {
        try (FakeApi api = new FakeApi(request -> FakeApi.json(200, PROCESSING))) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).apiKey("key-1").build();
            pmedia.realtime().getMediaStatus("r-1");
            assertThat(api.seen.get(0).header("x-api-key")).isEqualTo("key-1");
            assertThat(api.seen.get(0).header("Authorization")).isNull();
        }
    }

    /** A clock the test moves. */
    static final class MutableClock extends Clock {
        volatile Instant now = Instant.parse("2026-11-27T08:00:00Z");

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
