package io.pmedia.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import io.pmedia.client.PmediaApiException.BadRequestException;
import io.pmedia.client.PmediaApiException.NotFoundException;
import io.pmedia.client.PmediaClient;
import io.pmedia.client.RetryPolicy;
import io.pmedia.client.model.MediaStatus;
import io.pmedia.client.model.NewClient;
import io.pmedia.client.model.OnboardedClient;
import io.pmedia.client.model.TaskCreateRequest;
import io.pmedia.client.model.TaskStatus;
import io.pmedia.client.model.VideoPush;

/**
 * The examples of sdk/java/README.md against the running stack, through the gateway, as a vendor of its own (onboarded
 * here with the SDK's operator calls, its webhook-url the example receiver): a token, a personalized video that
 * plays, its push verified, a batch of three rows with its output file, a 429 retried after Retry-After, and an error
 * answer surfaced as a typed exception with its body. Run by scripts/e2e.sh with -Pstack.
 */
class ExamplesStackTest {

    static Properties env;
    static PmediaClient operator;
    static OnboardedClient vendor;
    static HttpServer receiver;
    static final Map<String, VideoPush> PUSHES = new ConcurrentHashMap<>();

    @BeforeAll
    static void onboardAVendorWhoseWebhookIsTheExampleReceiver() throws IOException {
        env = new Properties();
        try (var reader = Files.newBufferedReader(Path.of(System.getProperty("pmedia.root"), ".pmedia/local.env"))) {
            env.load(reader);
        }
        operator = PmediaClient.builder(env.getProperty("PMEDIA_GATEWAY_URL"))
                .adminToken(env.getProperty("PMEDIA_ADMIN_TOKEN")).build();
        vendor = onboard("sdk-java-examples " + UUID.randomUUID(), null);
        receiver = WebhookReceiver.start(0, vendor.getWebhookSecret(),
                push -> PUSHES.put(push.getClientRequestId(), push));
        onboardWebhook(vendor, "http://127.0.0.1:" + receiver.getAddress().getPort() + "/video-push");
    }

    @AfterAll
    static void offboardTheVendor() {
        if (receiver != null) {
            receiver.stop(0);
        }
        if (vendor != null) {
            offboard(vendor);
        }
    }

    static OnboardedClient onboard(String name, String webhookUrl) {
        return call(() -> operator.operator().createClient(new NewClient().name(name).webhookUrl(webhookUrl)));
    }

    static void offboard(OnboardedClient client) {
        call(() -> {
            operator.operator().deleteClient(client.getClientId());
            return null;
        });
    }

    static void onboardWebhook(OnboardedClient client, String url) {
        call(() -> operator.operator().updateClient(client.getClientId(),
                new io.pmedia.client.model.ClientUpdate().webhookUrl(url)));
    }

    PmediaClient vendorClient(RetryPolicy retries) {
        return PmediaClient.builder(env.getProperty("PMEDIA_GATEWAY_URL"))
                .credentials(vendor.getClientId().toString(), vendor.getClientSecret())
                .retryPolicy(retries).build();
    }

    @Test
    void theTokenExampleGetsATokenAndKeepsIt() {
        PmediaClient pmedia = vendorClient(RetryPolicy.defaults());
        String token = pmedia.accessToken();
        assertThat(token.split("\\.")).hasSize(3);
        assertThat(pmedia.accessToken()).isSameAs(token);
    }

    @Test
    void thePersonalizedVideoRendersToAPlayableMp4AndItsPushVerifies() throws Exception {
        PmediaClient pmedia = vendorClient(RetryPolicy.defaults());
        String requestId = "sdk-java-" + UUID.randomUUID();
        MediaStatus video = PersonalizedVideo.render(pmedia, env.getProperty("PMEDIA_DEMO_USE_CASE_ID"), requestId);

        assertThat(video.getStatus()).isEqualTo(MediaStatus.StatusEnum.SUCCESS);
        assertThat(video.getStreamUrl()).isNotBlank();
        Path mp4 = pmedia.download(video.getVideoUrl(), Files.createTempFile("sdk-java", ".mp4"));
        assertThat(ffprobe(mp4)).contains("h264", "aac").containsPattern("duration=(9\\.9|10\\.)");
        Files.delete(mp4);

        await().atMost(Duration.ofSeconds(60)).until(() -> PUSHES.containsKey(requestId));
        assertThat(PUSHES.get(requestId).getUserId()).isEqualTo("user-7");
        assertThat(PUSHES.get(requestId).getVideoUrl()).startsWith("http");
    }

    @Test
    void theBatchOfThreeCompletesAndItsOutputFileListsEveryRow() {
        PmediaClient pmedia = vendorClient(RetryPolicy.defaults());
        List<TaskStatus> progress = new CopyOnWriteArrayList<>();
        TaskStatus done = BatchOfThree.run(pmedia, UUID.fromString(env.getProperty("PMEDIA_DEMO_TEMPLATE_ID")),
                progress::add);

        assertThat(done.getStatus()).isEqualTo(TaskStatus.StatusEnum.COMPLETED);
        assertThat(done.getProcessed()).isEqualTo(3);
        assertThat(progress).isNotEmpty().last().isEqualTo(done);
        String output = pmedia.readOutput(done);
        assertThat(output.lines().filter(line -> line.contains(",SUCCESS,"))).hasSize(3);
        assertThat(output).contains("u-1", "u-2", "u-3");
    }

    /**
     * The vendor's budget for calls that start work (100, then 20/s) is drained with creates the gateway refuses
     * after counting them (malformed JSON); the SDK's realtime create then meets a 429, waits its Retry-After and
     * goes through: the create is idempotent by client-request-id, so the SDK retries it.
     */
    @Test
    void aRealtimeCreateThatMeetsA429IsRetriedAfterRetryAfter() throws Exception {
        OnboardedClient flooded = onboard("sdk-java-429 " + UUID.randomUUID(), null);
        try {
            List<String> retries = new CopyOnWriteArrayList<>();
            AtomicBoolean drain = new AtomicBoolean(true);
            PmediaClient pmedia = PmediaClient.builder(env.getProperty("PMEDIA_GATEWAY_URL"))
                    .credentials(flooded.getClientId().toString(), flooded.getClientSecret())
                    .retryPolicy(RetryPolicy.defaults().withListener((method, uri, status, wait, attempt) -> {
                        retries.add(method + " " + uri.getPath() + " " + status + " " + wait.toSeconds());
                        drain.set(false);
                    })).build();
            String token = pmedia.accessToken();
            for (int round = 0; round < 5
                    && retries.stream().noneMatch(r -> r.startsWith("POST /media/demo 429")); round++) {
                drain.set(true);
                AtomicInteger refused = new AtomicInteger();
                ExecutorService drainers = Executors.newFixedThreadPool(3);
                for (int i = 0; i < 3; i++) {
                    drainers.submit(() -> drainCreations(token, drain, refused));
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> refused.get() > 0);
                MediaStatus video = PersonalizedVideo.render(pmedia, env.getProperty("PMEDIA_DEMO_USE_CASE_ID"),
                        "sdk-java-429-" + UUID.randomUUID());
                drain.set(false);
                drainers.shutdown();
                assertThat(drainers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
                assertThat(video.getStatus()).isEqualTo(MediaStatus.StatusEnum.SUCCESS);
            }
            assertThat(retries).as("a 429 on POST /media/demo, retried after its Retry-After (s)")
                    .anySatisfy(retry -> assertThat(retry).matches("POST /media/demo 429 [1-9][0-9]*"));
        } finally {
            offboard(flooded);
        }
    }

    private static Void drainCreations(String token, AtomicBoolean drain, AtomicInteger refused) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest create = HttpRequest.newBuilder(URI.create(env.getProperty("PMEDIA_GATEWAY_URL") + "/media/demo"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{")).build();
        for (int sent = 0; drain.get() && sent < 5_000; sent++) {
            if (http.send(create, HttpResponse.BodyHandlers.discarding()).statusCode() == 429) {
                refused.incrementAndGet();
            }
        }
        return null;
    }

    @Test
    void anErrorAnswerIsATypedExceptionCarryingTheErrorBody() {
        PmediaClient pmedia = vendorClient(RetryPolicy.defaults());
        assertThatThrownBy(() -> pmedia.waitForVideo("no-such-request",
                io.pmedia.client.WaitOptions.defaults())).isInstanceOfSatisfying(NotFoundException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(404);
                    assertThat(e.getCode()).isEqualTo("NOT_FOUND");
                    assertThat(e.getError().getMessage()).isNotBlank();
                    assertThat(e.getError().getTimestamp()).isNotNull();
                });
        assertThatThrownBy(() -> pmedia.createTask(new TaskCreateRequest().campaignId("c")
                .templateId(UUID.fromString(env.getProperty("PMEDIA_DEMO_TEMPLATE_ID"))).filePath("s3://x/y")
                .rowCount(0).expectedOutputDuration(1))).isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getCode()).isEqualTo("VALIDATION_ERROR");
                    assertThat(e.getMessage()).contains("row-count");
                });
    }

    private static String ffprobe(Path file) throws IOException, InterruptedException {
        Process probe = new ProcessBuilder("ffprobe", "-v", "error", "-show_entries",
                "stream=codec_name:format=duration", "-of", "default=noprint_wrappers=1", file.toString())
                .redirectErrorStream(true).start();
        String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(probe.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(probe.exitValue()).as(out).isZero();
        return out;
    }

    /** A generated operator call (its checked exception is for transport failures only). */
    interface OperatorCall<T> {
        T run() throws io.pmedia.client.invoker.ApiException;
    }

    static <T> T call(OperatorCall<T> call) {
        try {
            return call.run();
        } catch (io.pmedia.client.invoker.ApiException e) {
            throw new IllegalStateException(e);
        }
    }
}
