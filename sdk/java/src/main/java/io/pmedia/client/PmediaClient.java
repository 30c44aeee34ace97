package io.pmedia.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.client.api.AuthenticationApi;
import io.pmedia.client.api.BatchMediaApi;
import io.pmedia.client.api.CampaignsApi;
import io.pmedia.client.api.OperatorApi;
import io.pmedia.client.api.RealtimeMediaApi;
import io.pmedia.client.api.TemplatesApi;
import io.pmedia.client.api.VirtualTryOnApi;
import io.pmedia.client.api.WebhooksApi;
import io.pmedia.client.invoker.ApiClient;
import io.pmedia.client.invoker.ApiException;
import io.pmedia.client.model.Credentials;
import io.pmedia.client.model.ErrorResponse;
import io.pmedia.client.model.MediaAcceptance;
import io.pmedia.client.model.MediaRequest;
import io.pmedia.client.model.MediaStatus;
import io.pmedia.client.model.TaskCreateRequest;
import io.pmedia.client.model.TaskCreateResponse;
import io.pmedia.client.model.TaskStatus;
import io.pmedia.client.model.UploadAnswer;
import io.pmedia.client.model.UploadRequest;

/**
 * The pmedia API for a vendor, built from the gateway's base URL and the client credentials issued at onboarding:
 *
 * <pre>
 * PmediaClient pmedia = PmediaClient.builder("https://api.pmedia.example").credentials(clientId, clientSecret).build();
 * MediaStatus video = pmedia.renderVideo(request); // waits for SUCCESS: video-url, stream-url, renditions
 * </pre>
 *
 * Every operation of the contract is there as generated ({@link #realtime()}, {@link #batch()}, ...,
 * {@link #api(Class)}), with the token fetched, cached and refreshed before it expires, idempotent requests retried
 * on 429 and 503 after {@code Retry-After} ({@link RetryPolicy}), and every error answer thrown as a
 * {@link PmediaApiException} carrying the error body. On top: {@link #renderVideo}, {@link #uploadBatchFile},
 * {@link #createTask}, {@link #waitForTask}, {@link #downloadOutput}, and {@link Webhooks#verify} for the pushes.
 * Thread-safe; build one and share it.
 */
public final class PmediaClient {

    private final ApiClient apiClient;
    private final PmediaHttpClient http;
    private final TokenCache tokens;
    private final Clock clock;

    private PmediaClient(Builder builder) {
        URI base = URI.create(builder.baseUrl.replaceAll("/+$", ""));
        this.clock = builder.clock;
        ObjectMapper mapper = ApiClient.createDefaultObjectMapper();
        // The token endpoint takes no credentials, so fetching a token goes through the same client without looping.
        AuthenticationApi[] auth = new AuthenticationApi[1];
        this.tokens = builder.clientId == null
                ? null
                : new TokenCache(() -> call(() -> auth[0].createToken(
                        new Credentials().clientId(builder.clientId).clientSecret(builder.clientSecret))), clock);
        this.http = new PmediaHttpClient(builder.httpClient.build(), base, tokens, builder.apiKey, builder.adminToken,
                builder.retries);
        this.apiClient = new SdkApiClient(http, mapper, base.toString());
        apiClient.setReadTimeout(builder.readTimeout);
        apiClient.setResponseInterceptor(response -> raiseForError(response, mapper));
        auth[0] = new AuthenticationApi(apiClient);
    }

    /** A client of the gateway at {@code baseUrl}, e.g. {@code https://api.pmedia.example}. */
    public static Builder builder(String baseUrl) {
        return new Builder(baseUrl);
    }

    // --- the generated operations, configured ------------------------------------------------------------------

    public RealtimeMediaApi realtime() {
        return new RealtimeMediaApi(apiClient);
    }

    public BatchMediaApi batch() {
        return new BatchMediaApi(apiClient);
    }

    public TemplatesApi templates() {
        return new TemplatesApi(apiClient);
    }

    public VirtualTryOnApi tryOn() {
        return new VirtualTryOnApi(apiClient);
    }

    public CampaignsApi campaigns() {
        return new CampaignsApi(apiClient);
    }

    public WebhooksApi webhooks() {
        return new WebhooksApi(apiClient);
    }

    public AuthenticationApi authentication() {
        return new AuthenticationApi(apiClient);
    }

    /** The operator's calls (onboarding, templates, fonts); the client must be built with {@code adminToken}. */
    public OperatorApi operator() {
        return new OperatorApi(apiClient);
    }

    /**
     * Any generated API class of {@code io.pmedia.client.api} (one per tag of the contract, including those added
     * after this class was written), on this client's credentials, retries and errors.
     */
    public <T> T api(Class<T> type) {
        try {
            return type.getConstructor(ApiClient.class).newInstance(apiClient);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(type.getName() + " is not a generated API class", e);
        }
    }

    /** The configured generated client, for what the accessors above do not cover. */
    public ApiClient apiClient() {
        return apiClient;
    }

    /** The current access token (fetched, or refreshed shortly before it expires). */
    public String accessToken() {
        if (tokens == null) {
            throw new IllegalStateException("no client credentials: build the client with credentials(id, secret)");
        }
        return tokens.get();
    }

    // --- realtime ------------------------------------------------------------------------------------------------

    /**
     * Creates a realtime video request and waits until it is rendered. Safe to call again with the same
     * client-request-id: the API answers the same request (and a lost answer is retried that way).
     *
     * @return the status at {@code SUCCESS}: video-url, image-url, stream-url, renditions, share-url (where the API
     *         gives them)
     * @throws RenderFailedException when the request is refused or the render fails
     */
    public MediaStatus renderVideo(MediaRequest request) {
        return renderVideo(request, WaitOptions.defaults());
    }

    /** {@link #renderVideo(MediaRequest)} with a timeout, poll intervals or a progress callback. */
    public MediaStatus renderVideo(MediaRequest request, WaitOptions<MediaStatus> options) {
        MediaAcceptance acceptance = call(() -> realtime().createMedia(request));
        if (acceptance.getStatus() != MediaAcceptance.StatusEnum.SUCCESS) {
            throw new RenderFailedException("request " + acceptance.getClientRequestId() + " refused: "
                    + acceptance.getMessage(), acceptance.getServiceRequestId(), null);
        }
        return waitForVideo(acceptance.getServiceRequestId(), options);
    }

    /** Polls GET /status/{transactionId} until {@code SUCCESS} (returned) or {@code FAILURE} (thrown). */
    public MediaStatus waitForVideo(String serviceRequestId, WaitOptions<MediaStatus> options) {
        RealtimeMediaApi api = realtime();
        return poll(() -> call(() -> api.getMediaStatus(serviceRequestId)), status -> {
            switch (status.getStatus()) {
                case SUCCESS :
                    return true;
                case FAILURE :
                    throw new RenderFailedException("request " + serviceRequestId + " failed: " + status.getMessage(),
                            serviceRequestId, status);
                default :
                    return false;
            }
        }, options, "video " + serviceRequestId);
    }

    // --- batch ---------------------------------------------------------------------------------------------------

    /**
     * Puts a batch input file (a UTF-8 CSV) into the vendor's namespace: asks POST /media/task/uploads for a
     * presigned URL and PUTs the file there.
     *
     * @return the file-path to give {@link #createTask}
     */
    public String uploadBatchFile(Path file) {
        return upload(file.getFileName().toString(), () -> {
            try {
                return HttpRequest.BodyPublishers.ofFile(file);
            } catch (IOException e) {
                throw new PmediaException("cannot read " + file, e);
            }
        });
    }

    /** {@link #uploadBatchFile(Path)} for content in memory, under {@code fileName} (e.g. customers.csv). */
    public String uploadBatchFile(String fileName, byte[] content) {
        return upload(fileName, () -> HttpRequest.BodyPublishers.ofByteArray(content));
    }

    /** {@link #uploadBatchFile(Path)} for a stream (read whole: the store wants the length first). */
    public String uploadBatchFile(String fileName, InputStream content) {
        try {
            return uploadBatchFile(fileName, content.readAllBytes());
        } catch (IOException e) {
            throw new PmediaException("cannot read the content of " + fileName, e);
        }
    }

    private String upload(String fileName, Supplier<HttpRequest.BodyPublisher> body) {
        UploadAnswer answer = call(() -> batch().createTaskUpload(new UploadRequest().fileName(fileName)));
        HttpRequest put = HttpRequest.newBuilder(URI.create(answer.getUploadUrl()))
                .header("Content-Type", "text/csv")
                .PUT(body.get())
                .build();
        HttpResponse<String> response = send(put, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new PmediaException("the upload of " + fileName + " was refused: HTTP " + response.statusCode()
                    + " " + response.body());
        }
        return answer.getFilePath();
    }

    /** Creates a batch task (never retried: a second create would be a second task). */
    public TaskCreateResponse createTask(TaskCreateRequest request) {
        return call(() -> batch().createTask(request));
    }

    public TaskStatus getTask(UUID taskId) {
        return call(() -> batch().getTaskStatus(taskId));
    }

    /** Waits until the task is {@code COMPLETED} (returned) or {@code FAILED} (thrown), telling each status read. */
    public TaskStatus waitForTask(UUID taskId, Consumer<? super TaskStatus> onProgress) {
        return waitForTask(taskId, WaitOptions.<TaskStatus>defaults().timeout(Duration.ofHours(24))
                .intervals(Duration.ofSeconds(1), Duration.ofSeconds(10)).onProgress(onProgress));
    }

    public TaskStatus waitForTask(UUID taskId, WaitOptions<TaskStatus> options) {
        BatchMediaApi api = batch();
        return poll(() -> call(() -> api.getTaskStatus(taskId)), status -> {
            switch (status.getStatus()) {
                case COMPLETED :
                    return true;
                case FAILED :
                    throw new TaskFailedException(status);
                default :
                    return false;
            }
        }, options, "task " + taskId);
    }

    /** Downloads a completed task's output file (its file-url) to {@code target}. */
    public Path downloadOutput(TaskStatus status, Path target) {
        if (status.getFileUrl() == null) {
            throw new PmediaException("task " + status.getTaskId() + " has no output file yet (" + status.getStatus()
                    + ")");
        }
        return download(status.getFileUrl(), target);
    }

    /** A completed task's output file as text: one line per row with its status, message and video URL. */
    public String readOutput(TaskStatus status) {
        try {
            Path file = Files.createTempFile("pmedia-output", ".csv");
            try {
                return Files.readString(downloadOutput(status, file), StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new PmediaException("cannot read the output of task " + status.getTaskId(), e);
        }
    }

    /** Downloads a URL the API handed out (video-url, file-url, a rendition) to {@code target}. */
    public Path download(String url, Path target) {
        HttpRequest get = HttpRequest.newBuilder(URI.create(url)).GET().build();
        HttpResponse<InputStream> response = send(get, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            if (response.statusCode() / 100 != 2) {
                throw new PmediaException("GET " + URI.create(url).getPath() + ": HTTP " + response.statusCode());
            }
            Files.copy(body, target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new PmediaException("cannot download to " + target, e);
        }
    }

    // --- plumbing ------------------------------------------------------------------------------------------------

    /** A generated operation that throws the generated checked exception (only for transport failures here). */
    @FunctionalInterface
    interface Call<T> {
        T run() throws ApiException;
    }

    static <T> T call(Call<T> call) {
        try {
            return call.run();
        } catch (ApiException e) {
            throw new PmediaException("the request did not complete: " + e.getMessage(), e);
        }
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return http.send(request, handler);
        } catch (IOException e) {
            throw new PmediaException(request.method() + " " + request.uri().getHost() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PmediaException("interrupted", e);
        }
    }

    private <T> T poll(Supplier<T> read, Function<T, Boolean> done, WaitOptions<T> options,
            String what) {
        Instant deadline = clock.instant().plus(options.timeout());
        Duration interval = options.firstInterval();
        while (true) {
            T status = read.get();
            options.onProgress().accept(status);
            if (done.apply(status)) {
                return status;
            }
            if (!clock.instant().plus(interval).isBefore(deadline)) {
                throw new PmediaException(what + " did not finish within " + options.timeout());
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PmediaException("interrupted while waiting for " + what, e);
            }
            interval = interval.multipliedBy(3).dividedBy(2);
            if (interval.compareTo(options.maxInterval()) > 0) {
                interval = options.maxInterval();
            }
        }
    }

    /** The response interceptor: every error answer of the API becomes a typed exception with its body. */
    private static void raiseForError(HttpResponse<InputStream> response, ObjectMapper mapper) {
        int status = response.statusCode();
        if (status / 100 == 2) {
            return;
        }
        Duration retryAfter = PmediaHttpClient.retryAfter(response.headers()).orElse(null);
        String text;
        try (InputStream body = ApiClient.getResponseBody(response)) {
            text = body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new PmediaApiException(status, null, "HTTP " + status + " (the body could not be read)", null,
                    retryAfter);
        }
        throw errorOf(status, text, retryAfter, mapper);
    }

    static PmediaApiException errorOf(int status, String text, Duration retryAfter, ObjectMapper mapper) {
        try {
            return PmediaApiException.of(status, mapper.readValue(text, ErrorResponse.class), retryAfter);
        } catch (IOException | IllegalArgumentException notTheContractsBody) {
            // A code this SDK does not know yet, or not the error body at all (a proxy's page): keep what there is.
            String code = null;
            String message = "HTTP " + status + (text.isBlank() ? "" : ": " + text);
            try {
                JsonNode tree = mapper.readTree(text);
                if (tree != null && tree.hasNonNull("message")) {
                    code = tree.path("code").asText(null);
                    message = tree.path("message").asText();
                }
            } catch (IOException notJson) {
                // Not JSON: the status and the text are all there is.
            }
            return new PmediaApiException(status, code, message, null, retryAfter);
        }
    }

    /** The generated client with the SDK's HttpClient (credentials, retries) in place of a plain one. */
    private static final class SdkApiClient extends ApiClient {
        private final HttpClient client;

        SdkApiClient(HttpClient client, ObjectMapper mapper, String baseUri) {
            super(HttpClient.newBuilder(), mapper, baseUri);
            this.client = client;
        }

        @Override
        public HttpClient getHttpClient() {
            return client;
        }
    }

    /** Builds a {@link PmediaClient}. */
    public static final class Builder {
        private final String baseUrl;
        private String clientId;
        private String clientSecret;
        private String apiKey;
        private String adminToken;
        private RetryPolicy retries = RetryPolicy.defaults();
        private HttpClient.Builder httpClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
        private Duration readTimeout = Duration.ofSeconds(60);
        private Clock clock = Clock.systemUTC();

        private Builder(String baseUrl) {
            if (baseUrl == null || baseUrl.isBlank()) {
                throw new IllegalArgumentException("the base URL is required, e.g. https://api.pmedia.example");
            }
            this.baseUrl = baseUrl;
        }

        /** The client id and secret issued at onboarding; tokens are fetched and refreshed with them. */
        public Builder credentials(String id, String secret) {
            this.clientId = id;
            this.clientSecret = secret;
            return this;
        }

        /** The API key issued at onboarding: needed by the earlier realtime form, optional for GET /status. */
        public Builder apiKey(String key) {
            this.apiKey = key;
            return this;
        }

        /** The operator's admin token, for {@link PmediaClient#operator()} only (never a vendor's). */
        public Builder adminToken(String token) {
            this.adminToken = token;
            return this;
        }

        public Builder retryPolicy(RetryPolicy policy) {
            this.retries = policy;
            return this;
        }

        /** The JDK HttpClient to build on (proxy, TLS, executor); the SDK adds credentials and retries. */
        public Builder httpClient(HttpClient.Builder builder) {
            this.httpClient = builder;
            return this;
        }

        public Builder readTimeout(Duration timeout) {
            this.readTimeout = timeout;
            return this;
        }

        Builder clock(Clock testClock) {
            this.clock = testClock;
            return this;
        }

        public PmediaClient build() {
            if ((clientId == null) != (clientSecret == null)) {
                throw new IllegalArgumentException("give both the client id and the client secret");
            }
            return new PmediaClient(this);
        }
    }
}
