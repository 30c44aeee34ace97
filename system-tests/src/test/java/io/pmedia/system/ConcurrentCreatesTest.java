package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.sun.net.httpserver.HttpServer;

import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Every create operation under concurrency (issue 20): {@value #N} identical requests at once, then {@value #N}
 * conflicting ones, each with the outcome docs/decisions.md ("Creates under concurrency") and the OpenAPI document
 * give it. No answer is 5xx; an idempotent create makes one resource.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConcurrentCreatesTest {

    private static final int N = 6;

    private Stack.Vendor vendor;
    private HttpServer slowImages;
    private CountDownLatch release;

    @BeforeAll
    void onboard() throws IOException {
        vendor = Stack.onboard("concurrent creates");
        // A model image that answers only when released: the try-on stays PROCESSING while its doubles arrive.
        release = new CountDownLatch(1);
        byte[] png = Stack.png("gray", 96, 160);
        slowImages = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        slowImages.setExecutor(Executors.newCachedThreadPool());
        slowImages.createContext("/", exchange -> {
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.getResponseHeaders().add("Content-Type", "image/png");
            exchange.sendResponseHeaders(200, png.length);
            exchange.getResponseBody().write(png);
            exchange.close();
        });
        slowImages.start();
    }

    @AfterAll
    void offboard() {
        release.countDown();
        slowImages.stop(0);
        Stack.delete(vendor);
    }

    @Test
    void realtimeRequestsAreIdempotentByClientRequestId() {
        String id = "cc-" + UUID.randomUUID();
        List<Response> same = all(i -> vendor.json(media(id, "customer")).post("/media/demo"));
        assertThat(same).extracting(Response::statusCode).containsOnly(200);
        assertThat(same).extracting(answer -> answer.jsonPath().getString("service-request-id")).hasSize(N)
                .containsOnly(same.get(0).jsonPath().getString("service-request-id"));

        String other = "cc-" + UUID.randomUUID();
        List<Response> conflicting = all(i -> vendor.json(media(other, "customer-" + i)).post("/media/demo"));
        assertThat(conflicting).extracting(Response::statusCode).containsOnly(200, 409);
        assertThat(conflicting).filteredOn(answer -> answer.statusCode() == 200).hasSize(1);
        assertThat(conflicting).filteredOn(answer -> answer.statusCode() == 409)
                .allSatisfy(answer -> assertThat(answer.jsonPath().getString("message")).contains(other));
    }

    @Test
    void earlierFormRequestsAreIdempotentByClientRequestId() {
        String id = "cc-" + UUID.randomUUID();
        List<Response> same = all(i -> vendor.json(earlier(id, "customer")).header("x-api-key", vendor.apiKey())
                .post("/video/demo"));
        assertThat(same).extracting(Response::statusCode).containsOnly(200);
        assertThat(same).extracting(answer -> answer.jsonPath().getString("service-request-id"))
                .containsOnly(same.get(0).jsonPath().getString("service-request-id"));

        String other = "cc-" + UUID.randomUUID();
        List<Response> conflicting = all(i -> vendor.json(earlier(other, "customer-" + i))
                .header("x-api-key", vendor.apiKey()).post("/video/demo"));
        assertThat(conflicting).extracting(Response::statusCode).containsOnly(200, 409);
        assertThat(conflicting).filteredOn(answer -> answer.statusCode() == 200).hasSize(1);
    }

    @Test
    void vendorTemplatesAreOneVersionPerDefinition() {
        String useCase = "cc-" + UUID.randomUUID().toString().substring(0, 8);
        List<Response> same = all(i -> vendor.json(template(useCase, "Same")).post("/templates"));
        assertThat(same).extracting(Response::statusCode).containsOnly(200, 201);
        assertThat(same).filteredOn(answer -> answer.statusCode() == 201).hasSize(1);
        assertThat(same).extracting(answer -> answer.jsonPath().getInt("version")).containsOnly(1);

        List<Response> changed = all(i -> vendor.json(template(useCase, "Changed " + i)).post("/templates"));
        assertThat(changed).extracting(Response::statusCode).containsOnly(201);
        assertThat(changed).extracting(answer -> answer.jsonPath().getInt("version"))
                .containsExactlyInAnyOrder(2, 3, 4, 5, 6, 7);
        assertThat(changed).extracting(answer -> answer.jsonPath().getString("template-id"))
                .containsOnly(same.get(0).jsonPath().getString("template-id"));
    }

    @Test
    void sharedTemplatesAreOneVersionPerDefinition() {
        String useCase = "cc-" + UUID.randomUUID().toString().substring(0, 8);
        List<Response> same = all(i -> Stack.admin().contentType(ContentType.JSON)
                .body(shared(useCase, "Same")).post("/admin/templates"));
        assertThat(same).extracting(Response::statusCode).containsOnly(200, 201);
        assertThat(same).filteredOn(answer -> answer.statusCode() == 201).hasSize(1);

        List<Response> changed = all(i -> Stack.admin().contentType(ContentType.JSON)
                .body(shared(useCase, "Changed " + i)).post("/admin/templates"));
        assertThat(changed).extracting(Response::statusCode).containsOnly(201);
        assertThat(changed).extracting(answer -> answer.jsonPath().getInt("version")).doesNotHaveDuplicates();
    }

    @Test
    void aFontNameKeepsItsFirstFile() throws IOException {
        String name = "cc-" + UUID.randomUUID().toString().substring(0, 8);
        String mono = font("DejaVuSansMono.ttf");
        String serif = font("DejaVuSerif.ttf");

        List<Response> same = all(i -> fontUpload(name, mono));
        assertThat(same).extracting(Response::statusCode).containsOnly(200, 201);
        assertThat(same).filteredOn(answer -> answer.statusCode() == 201).hasSize(1);

        String other = "cc-" + UUID.randomUUID().toString().substring(0, 8);
        List<Response> conflicting = all(i -> fontUpload(other, i % 2 == 0 ? mono : serif));
        assertThat(conflicting).extracting(Response::statusCode).containsOnly(200, 201, 409);
        assertThat(conflicting).filteredOn(answer -> answer.statusCode() == 201).hasSize(1);
        String kept = conflicting.stream().filter(answer -> answer.statusCode() == 201).findFirst().orElseThrow()
                .jsonPath().getString("sha256");
        // The losers never overwrote the winner's file: the name still answers the winner's hash.
        assertThat(Stack.admin().get("/admin/fonts").jsonPath().getList("findAll { it.name == '" + other
                + "' }.sha256", String.class)).containsExactly(kept);
    }

    @Test
    void campaignSchedulesAreOneScheduleWhateverTheOrder() {
        String campaign = "cc-" + UUID.randomUUID();
        List<Response> same = all(i -> vendor.json(window(2)).post("/campaigns/" + campaign + "/schedule"));
        assertThat(same).extracting(Response::statusCode).containsOnly(200);

        List<Response> changed = all(i -> vendor.json(window(3 + i)).post("/campaigns/" + campaign + "/schedule"));
        assertThat(changed).extracting(Response::statusCode).containsOnly(200);
        String end = vendor.call().get("/campaigns/" + campaign + "/schedule").then().statusCode(200).extract()
                .path("end_time");
        assertThat(List.of(1, 2, 3, 4, 5, 6).stream().map(i -> window(2 + i).get("end_time"))).contains(end);
    }

    @Test
    void aBatchTaskIsOnePerFileAndCampaignWhileItRuns() {
        String file = Stack.upload(vendor, "rows.csv",
                "user-id,name\nu-1,Ada\nu-2,Grace\n".getBytes(StandardCharsets.UTF_8));
        String campaign = "cc-" + UUID.randomUUID();
        List<Response> same = all(i -> vendor.json(task(campaign, file, 1)).post("/media/task/create"));
        assertThat(same).extracting(Response::statusCode).containsOnly(200);
        String taskId = same.get(0).jsonPath().getString("task-id");
        assertThat(same).extracting(answer -> answer.jsonPath().getString("task-id")).containsOnly(taskId);

        // The first task still runs: another request for its file and campaign names it.
        List<Response> conflicting = all(i -> vendor.json(task(campaign, file, 2 + i)).post("/media/task/create"));
        assertThat(conflicting).extracting(Response::statusCode).containsOnly(409);
        assertThat(conflicting).allSatisfy(
                answer -> assertThat(answer.jsonPath().getString("message")).contains(taskId));
        vendor.call().post("/media/task/cancel/" + taskId);
    }

    @Test
    void aTryOnAskedTwiceWhileItProcessesIsOneTryOn() {
        String model = "http://127.0.0.1:" + slowImages.getAddress().getPort() + "/model-" + UUID.randomUUID()
                + ".png";
        List<Response> same = all(i -> vendor.json(tryOn("u-same", model)).post("/vton/request"));
        List<Response> different = all(i -> vendor.json(tryOn("u-" + i, model)).post("/vton/request"));
        release.countDown();

        assertThat(same).extracting(Response::statusCode).containsOnly(200);
        assertThat(same).extracting(answer -> answer.jsonPath().getString("request-id"))
                .containsOnly(same.get(0).jsonPath().getString("request-id"));
        assertThat(different).extracting(Response::statusCode).containsOnly(200);
        assertThat(different).extracting(answer -> answer.jsonPath().getString("request-id"))
                .doesNotHaveDuplicates();
    }

    @Test
    void onboardingAndUploadsMakeOneResourceEach() {
        String name = "cc-" + UUID.randomUUID();
        List<Response> clients = all(i -> Stack.admin().contentType(ContentType.JSON).body(Map.of("name", name))
                .post("/admin/clients"));
        assertThat(clients).extracting(Response::statusCode).containsOnly(201);
        assertThat(clients).extracting(answer -> answer.jsonPath().getString("client-id")).doesNotHaveDuplicates();
        clients.forEach(answer -> Stack.admin().delete("/admin/clients/" + answer.jsonPath().getString("client-id")));

        List<Response> uploads = all(i -> vendor.json(Map.of("file-name", "same.csv")).post("/media/task/uploads"));
        assertThat(uploads).extracting(Response::statusCode).containsOnly(200);
        assertThat(uploads).extracting(answer -> answer.jsonPath().getString("file-path")).doesNotHaveDuplicates();
    }

    // --- bodies --------------------------------------------------------------------------------------------------

    private static Map<String, Object> media(String clientRequestId, String customer) {
        return Map.of("client-request-id", clientRequestId, "customer-id", customer, "user-id", "u-1",
                "use-case-id", "no-such-use-case", "data", Map.of("personalization_fields", Map.of("name", "A")));
    }

    private static Map<String, Object> earlier(String clientRequestId, String customer) {
        return Map.of("client-request-id", clientRequestId, "customer-id", customer, "user-id", "u-1",
                "use-case-id", "no-such-use-case", "phrase-texts", List.of("A"));
    }

    private static Map<String, Object> template(String useCase, String name) {
        return Map.of("use-case-id", useCase, "name", name,
                "canvas", Map.of("width", 320, "height", 240, "fps", 25, "background", "#112233"),
                "segments", List.of(Map.of("id", "one", "duration", 1, "background", Map.of("color", "#112233"))));
    }

    private Map<String, Object> shared(String useCase, String name) {
        Map<String, Object> definition = new java.util.HashMap<>(template(useCase, name));
        definition.put("allowed-clients", List.of(vendor.id().toString()));
        return definition;
    }

    private static Map<String, String> window(int days) {
        return Map.of("start_time", "2031-01-01T00:00:00Z", "end_time",
                String.format("2031-01-%02dT00:00:00Z", days + 1));
    }

    private Map<String, Object> task(String campaign, String file, int priority) {
        return Map.of("client-id", vendor.id().toString(), "campaign-id", campaign, "template-id",
                Stack.env().get("PMEDIA_DEMO_TEMPLATE_ID"), "file-name", "rows.csv", "file-path", file,
                "priority", priority, "row-count", 2, "expected-output-duration", 60);
    }

    private Map<String, Object> tryOn(String user, String model) {
        return Map.of("user-id", user, "client-id", vendor.id().toString(), "usecase-id", "uc", "model-image",
                model, "garment-image", List.of(model));
    }

    private static String font(String file) throws IOException {
        return Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of("/usr/share/fonts/truetype/dejavu",
                file)));
    }

    private static Response fontUpload(String name, String file) {
        return Stack.admin().contentType(ContentType.JSON).body(Map.of("name", name, "file", file))
                .post("/admin/fonts");
    }

    /** {@value #N} calls at once (started together), their answers in order. */
    private static List<Response> all(IntFunction<Response> call) {
        ExecutorService pool = Executors.newFixedThreadPool(N);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Response>> started = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                int index = i;
                started.add(pool.submit(() -> {
                    start.await();
                    return call.apply(index);
                }));
            }
            start.countDown();
            List<Response> answers = new ArrayList<>();
            for (Future<Response> answer : started) {
                answers.add(answer.get(120, TimeUnit.SECONDS));
            }
            assertThat(answers).extracting(Response::statusCode).allSatisfy(status -> assertThat(status)
                    .as("no create answers 5xx").isLessThan(500));
            return answers;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }
}
