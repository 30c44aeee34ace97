package io.pmedia.vton.engine;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.net.DestinationPolicy;
import io.pmedia.common.net.FetchException;
import io.pmedia.common.net.FetchRequest;
import io.pmedia.common.net.SafeFetcher;
import io.pmedia.vton.EngineKind;
import io.pmedia.vton.config.VtonConfig;
import io.smallrye.mutiny.Uni;

/**
 * The adapter to a FASHN-compatible provider: {@code POST {base}/run} with {@code model_name} and {@code inputs},
 * then {@code GET {base}/status/{id}} until {@code completed} or {@code failed}; the first output is downloaded and
 * kept in our store (provider URLs expire). Several garments are applied one after the other, each run taking the
 * previous output as its model image. Every call, and the download, goes through the safe fetcher; vendor URLs are
 * checked against the same address policy before the provider is asked to fetch them.
 * <p>
 * A prediction takes seconds to minutes: the calls are non-blocking and the wait between two status polls is a
 * timer, so a request in progress holds no thread.
 */
@ApplicationScoped
public class FashnEngine implements TryOnEngine {

    private final SafeFetcher fetcher;
    private final Images images;
    private final VtonConfig.Fashn config;
    private final ObjectMapper mapper;

    public FashnEngine(SafeFetcher fetcher, Images images, VtonConfig config, ObjectMapper mapper) {
        this.fetcher = fetcher;
        this.images = images;
        this.config = config.fashn();
        this.mapper = mapper;
    }

    @Override
    public EngineKind kind() {
        return EngineKind.FASHN;
    }

    /** Whether an API key is configured (without one, requests fail with a clear message). */
    public boolean configured() {
        return config.apiKey().filter(key -> !key.isBlank()).isPresent();
    }

    @Override
    public Uni<Output> run(Job job) {
        if (!configured()) {
            return Uni.createFrom()
                    .failure(new TryOnException("the try-on provider is not configured (PMEDIA_FASHN_API_KEY)"));
        }
        // Checking vendor URLs resolves names and may read the object store: worker-thread work.
        return Blocking.offload(() -> providerInputs(job))
                .flatMap(inputs -> chain(job, inputs.get(0), inputs.subList(1, inputs.size())))
                .flatMap(output -> images.download(job.clientId(), "the provider's output", output))
                .map(image -> new Output(image, job.outputFormat().contentType()));
    }

    /** The model image, then the garments, as URLs the provider may fetch. Blocking. */
    private List<String> providerInputs(Job job) {
        List<String> inputs = new ArrayList<>();
        inputs.add(images.forProvider(job.clientId(), "model-image", job.modelImage()));
        for (int i = 0; i < job.garmentImages().size(); i++) {
            inputs.add(images.forProvider(job.clientId(), "garment-image[" + i + "]", job.garmentImages().get(i)));
        }
        return inputs;
    }

    /** Applies the garments in order, each on the previous output; the URL of the last output. */
    private Uni<String> chain(Job job, String model, List<String> garments) {
        if (garments.isEmpty()) {
            return Uni.createFrom().item(model);
        }
        return predict(job, model, garments.get(0)).flatMap(output -> chain(job, output, garments.subList(1,
                garments.size())));
    }

    /** One prediction; the URL of its first output. */
    private Uni<String> predict(Job job, String modelImage, String garmentImage) {
        ObjectNode body = mapper.createObjectNode().put("model_name", config.modelName());
        body.putObject("inputs")
                .put("model_image", modelImage)
                .put("garment_image", garmentImage)
                .put("category", job.category().wire())
                .put("mode", job.mode().wire())
                .put("moderation_level", job.moderationLevel().wire())
                .put("segmentation_free", job.segmentationFree())
                .put("output_format", job.outputFormat().wire());
        return call(FetchRequest.post(endpoint("/run"), body.toString().getBytes(StandardCharsets.UTF_8))
                .withHeader("Content-Type", "application/json"), "run")
                .flatMap(started -> {
                    String id = started.path("id").asText("");
                    if (id.isEmpty() || !id.matches("[A-Za-z0-9_.-]{1,200}")) {
                        return Uni.createFrom().failure(new TryOnException(
                                "the try-on provider did not start a prediction: "
                                        + error(started, "no prediction id")));
                    }
                    return poll(id, System.nanoTime() + config.timeout().toNanos());
                });
    }

    /** Asks for the prediction's status until it ends; between two asks a timer runs, no thread waits. */
    private Uni<String> poll(String id, long deadline) {
        return call(FetchRequest.get(endpoint("/status/" + id)), "status").flatMap(status -> {
            switch (status.path("status").asText()) {
                case "completed" -> {
                    JsonNode output = status.path("output");
                    if (!output.isArray() || output.isEmpty() || !output.get(0).isTextual()) {
                        return Uni.createFrom().failure(
                                new TryOnException("the try-on provider completed without an output image"));
                    }
                    return Uni.createFrom().item(output.get(0).asText());
                }
                case "failed", "canceled", "cancelled", "time_out" -> {
                    return Uni.createFrom().failure(new TryOnException(
                            "the try-on provider failed: " + error(status, status.path("status").asText())));
                }
                default -> {
                    // starting, in_queue, processing
                }
            }
            if (System.nanoTime() > deadline) {
                return Uni.createFrom().failure(new TryOnException("the try-on provider did not finish within "
                        + config.timeout().toSeconds() + " s"));
            }
            return Uni.createFrom().voidItem().onItem().delayIt().by(config.pollInterval())
                    .flatMap(ignored -> poll(id, deadline));
        });
    }

    private Uni<JsonNode> call(FetchRequest request, String what) {
        FetchRequest authorized = request.withHeader("Authorization", "Bearer " + config.apiKey().orElse(""))
                .withHeader("Accept", "application/json").withMaxBytes(1024 * 1024);
        return fetcher.fetch(authorized)
                .ifNoItem().after(authorized.timeout().plusSeconds(5)).fail()
                .onFailure(FetchException.class).transform(e -> new TryOnException(
                        "the try-on provider cannot be reached (" + what + "): " + e.getMessage()))
                .map(response -> {
                    JsonNode json;
                    try {
                        json = mapper.readTree(response.body() == null ? new byte[0] : response.body());
                    } catch (IOException e) {
                        json = mapper.createObjectNode();
                    }
                    if (!response.successful()) {
                        throw new TryOnException("the try-on provider answered HTTP " + response.status() + " ("
                                + what + "): " + error(json, "no details"));
                    }
                    return json == null ? mapper.createObjectNode() : json;
                });
    }

    private URI endpoint(String path) {
        String base = config.baseUrl().endsWith("/")
                ? config.baseUrl().substring(0, config.baseUrl().length() - 1)
                : config.baseUrl();
        return DestinationPolicy.parse(base + path);
    }

    /** The provider's error ({@code {"name", "message"}} or a string), shortened. */
    private static String error(JsonNode answer, String otherwise) {
        JsonNode error = answer == null ? null : answer.get("error");
        String text;
        if (error == null || error.isNull()) {
            text = otherwise;
        } else if (error.isTextual()) {
            text = error.asText();
        } else {
            text = List.of(error.path("name").asText(""), error.path("message").asText("")).stream()
                    .filter(part -> !part.isEmpty()).reduce((a, b) -> a + ": " + b).orElse(otherwise);
        }
        return text.length() <= 300 ? text : text.substring(0, 297) + "...";
    }
}
