package io.pmedia.vton.engine;

import java.io.IOException;
import java.net.URI;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.common.net.DestinationPolicy;
import io.pmedia.common.net.FetchException;
import io.pmedia.common.net.FetchRequest;
import io.pmedia.common.net.FetchResponse;
import io.pmedia.common.net.SafeFetcher;
import io.pmedia.vton.config.VtonConfig;

/**
 * The adapter to a FASHN-compatible provider: {@code POST {base}/run} with {@code model_name} and {@code inputs},
 * then {@code GET {base}/status/{id}} until {@code completed} or {@code failed}; the first output is downloaded and
 * kept in our store (provider URLs expire). Several garments are applied one after the other, each run taking the
 * previous output as its model image. Every call, and the download, goes through the safe fetcher; vendor URLs are
 * checked against the same address policy before the provider is asked to fetch them.
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
    public String name() {
        return "fashn";
    }

    /** Whether an API key is configured (without one, requests fail with a clear message). */
    public boolean configured() {
        return config.apiKey().filter(key -> !key.isBlank()).isPresent();
    }

    @Override
    public Output run(Job job) {
        if (!configured()) {
            throw new TryOnException("the try-on provider is not configured (PMEDIA_FASHN_API_KEY)");
        }
        images.check("model-image", job.modelImage());
        for (int i = 0; i < job.garmentImages().size(); i++) {
            images.check("garment-image[" + i + "]", job.garmentImages().get(i));
        }
        String model = job.modelImage();
        for (String garment : job.garmentImages()) {
            model = predict(job, model, garment);
        }
        byte[] image = images.download("the provider's output", model);
        return new Output(image, Images.contentType(job.outputFormat()));
    }

    /** One prediction; returns the URL of its first output. */
    private String predict(Job job, String modelImage, String garmentImage) {
        ObjectNode body = mapper.createObjectNode().put("model_name", config.modelName());
        body.putObject("inputs")
                .put("model_image", modelImage)
                .put("garment_image", garmentImage)
                .put("category", job.category())
                .put("mode", job.mode())
                .put("moderation_level", job.moderationLevel())
                .put("segmentation_free", job.segmentationFree())
                .put("output_format", job.outputFormat());
        JsonNode started = call(FetchRequest.post(endpoint("/run"), body.toString().getBytes())
                .withHeader("Content-Type", "application/json"), "run");
        String id = started.path("id").asText("");
        if (id.isEmpty() || !id.matches("[A-Za-z0-9_.-]{1,200}")) {
            throw new TryOnException("the try-on provider did not start a prediction: "
                    + error(started, "no prediction id"));
        }
        long deadline = System.nanoTime() + config.timeout().toNanos();
        while (true) {
            JsonNode status = call(FetchRequest.get(endpoint("/status/" + id)), "status");
            switch (status.path("status").asText()) {
                case "completed" -> {
                    JsonNode output = status.path("output");
                    if (!output.isArray() || output.isEmpty() || !output.get(0).isTextual()) {
                        throw new TryOnException("the try-on provider completed without an output image");
                    }
                    return output.get(0).asText();
                }
                case "failed", "canceled", "cancelled", "time_out" -> throw new TryOnException(
                        "the try-on provider failed: " + error(status, status.path("status").asText()));
                default -> {
                    // starting, in_queue, processing
                }
            }
            if (System.nanoTime() > deadline) {
                throw new TryOnException("the try-on provider did not finish within " + config.timeout().toSeconds()
                        + " s");
            }
            try {
                Thread.sleep(config.pollInterval().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TryOnException("the try-on was interrupted");
            }
        }
    }

    private JsonNode call(FetchRequest request, String what) {
        FetchRequest authorized = request.withHeader("Authorization", "Bearer " + config.apiKey().orElse(""))
                .withHeader("Accept", "application/json").withMaxBytes(1024 * 1024);
        FetchResponse response;
        try {
            response = fetcher.fetch(authorized).await().atMost(authorized.timeout().plusSeconds(5));
        } catch (FetchException e) {
            throw new TryOnException("the try-on provider cannot be reached (" + what + "): " + e.getMessage());
        }
        JsonNode json;
        try {
            json = mapper.readTree(response.body() == null ? new byte[0] : response.body());
        } catch (IOException e) {
            json = mapper.createObjectNode();
        }
        if (!response.successful()) {
            throw new TryOnException("the try-on provider answered HTTP " + response.status() + " (" + what + "): "
                    + error(json, "no details"));
        }
        return json == null ? mapper.createObjectNode() : json;
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
