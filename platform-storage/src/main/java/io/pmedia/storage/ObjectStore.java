package io.pmedia.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The bucket of this deployment. Blocking (the AWS SDK's synchronous client): call it from worker threads.
 * Vendors get files through {@link #publicUrl(String)}: a presigned GET, or a CDN URL when one is configured, and put
 * files through {@link #presignPut(String, Duration)}. Whatever a vendor names is resolved with
 * {@link #ownedKey(UUID, String)}, which answers only keys of the vendor's own namespace ({@link VendorNamespace}).
 */
@ApplicationScoped
public class ObjectStore {

    private static final Logger LOG = Logger.getLogger(ObjectStore.class);

    private final StorageConfig config;
    private final S3Client s3;
    private final S3Presigner presigner;
    private volatile boolean bucketChecked;

    public ObjectStore(StorageConfig config) {
        this.config = config;
        var credentials = StaticCredentialsProvider.create(
                AwsBasicCredentials.create(config.accessKey(), config.secretKey()));
        var s3Config = S3Configuration.builder().pathStyleAccessEnabled(config.pathStyle()).build();
        var builder = S3Client.builder()
                .region(Region.of(config.region()))
                .credentialsProvider(credentials)
                .serviceConfiguration(s3Config)
                .httpClientBuilder(UrlConnectionHttpClient.builder());
        var presignerBuilder = S3Presigner.builder()
                .region(Region.of(config.region()))
                .credentialsProvider(credentials)
                .serviceConfiguration(s3Config);
        config.endpoint().ifPresent(endpoint -> {
            builder.endpointOverride(endpoint);
            presignerBuilder.endpointOverride(endpoint);
        });
        this.s3 = builder.build();
        this.presigner = presignerBuilder.build();
    }

    @PreDestroy
    void close() {
        s3.close();
        presigner.close();
    }

    /**
     * Whether {@code failure} (at any depth) says the store cannot be reached or answers 5xx right now: a transient
     * failure of the platform, to be retried by background work, never reported as the vendor's failure.
     */
    public static boolean isUnavailable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof AwsServiceException service) {
                return service.statusCode() >= 500;
            }
            if (cause instanceof SdkClientException) {
                return true;
            }
            // the HTTP client's own failure, not wrapped by the SDK: UrlConnectionHttpClient throws a connection the
            // store closed under a request (a kept-alive one it had just dropped) as an UncheckedIOException
            if (cause instanceof java.net.SocketException || cause instanceof java.net.SocketTimeoutException
                    || cause instanceof java.net.UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    public String bucket() {
        return config.bucket();
    }

    /** Uploads a file under {@code key}. */
    public void put(String key, Path file, String contentType) {
        ensureBucket();
        s3.putObject(request -> request.bucket(config.bucket()).key(key).contentType(contentType),
                RequestBody.fromFile(file));
    }

    /** Uploads bytes under {@code key}. */
    public void put(String key, byte[] content, String contentType) {
        ensureBucket();
        s3.putObject(request -> request.bucket(config.bucket()).key(key).contentType(contentType),
                RequestBody.fromBytes(content));
    }

    /** A small text object (a playlist, a caption file): its first {@code limit} bytes as UTF-8; empty when absent. */
    public Optional<String> text(String key, int limit) {
        return open(key).map(in -> {
            try (InputStream stream = in) {
                return new String(stream.readNBytes(limit), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Opens an object for reading; empty when it does not exist. The caller closes the stream. */
    public Optional<InputStream> open(String key) {
        try {
            ResponseInputStream<GetObjectResponse> stream = s3
                    .getObject(request -> request.bucket(config.bucket()).key(key));
            return Optional.of(stream);
        } catch (NoSuchKeyException | NoSuchBucketException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The keys under {@code prefix}, at most 1000, in key order. */
    public List<String> list(String prefix) {
        ensureBucket();
        return s3.listObjectsV2(request -> request.bucket(config.bucket()).prefix(prefix).maxKeys(1000)).contents()
                .stream().map(S3Object::key).toList();
    }

    /** Size in bytes, or empty when the object does not exist. */
    public Optional<Long> size(String key) {
        try {
            HeadObjectResponse head = s3.headObject(request -> request.bucket(config.bucket()).key(key));
            return Optional.of(head.contentLength());
        } catch (NoSuchKeyException | NoSuchBucketException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    public void delete(String key) {
        s3.deleteObject(request -> request.bucket(config.bucket()).key(key));
    }

    /**
     * Deletes every object under {@code prefix} whose key {@code which} accepts, a thousand per request (S3's
     * DeleteObjects), however many there are; the number deleted.
     */
    public int deleteUnder(String prefix, Predicate<String> which) {
        ensureBucket();
        int deleted = 0;
        List<ObjectIdentifier> chunk = new ArrayList<>();
        for (S3Object object : s3.listObjectsV2Paginator(request -> request.bucket(config.bucket()).prefix(prefix))
                .contents()) {
            if (!which.test(object.key())) {
                continue;
            }
            chunk.add(ObjectIdentifier.builder().key(object.key()).build());
            if (chunk.size() == 1000) {
                deleted += deleteObjects(chunk);
                chunk.clear();
            }
        }
        return chunk.isEmpty() ? deleted : deleted + deleteObjects(chunk);
    }

    private int deleteObjects(List<ObjectIdentifier> keys) {
        var answer = s3.deleteObjects(request -> request.bucket(config.bucket())
                .delete(delete -> delete.objects(keys).quiet(true)));
        if (answer.hasErrors() && !answer.errors().isEmpty()) {
            throw new IllegalStateException("the store refused to delete " + answer.errors().size() + " objects, e.g. "
                    + answer.errors().get(0).key() + ": " + answer.errors().get(0).code());
        }
        return keys.size();
    }

    /** The URL a vendor downloads {@code key} from. */
    public String publicUrl(String key) {
        return publicUrl(key, config.presignTtl());
    }

    /** The URL {@code key} is downloaded from, presigned for {@code ttl} (unless a CDN serves the bucket). */
    public String publicUrl(String key, Duration ttl) {
        Optional<String> base = publicBase();
        if (base.isPresent()) {
            return base.get() + "/" + key;
        }
        return presigner.presignGetObject(request -> request
                .signatureDuration(ttl)
                .getObjectRequest(get -> get.bucket(config.bucket()).key(key)))
                .url().toString();
    }

    /** A URL that uploads one object under {@code key} with a plain {@code PUT} (e.g. {@code curl -T}) until {@code ttl}. */
    public String presignPut(String key, Duration ttl) {
        ensureBucket();
        return presigner.presignPutObject(request -> request
                .signatureDuration(ttl)
                .putObjectRequest(put -> put.bucket(config.bucket()).key(key)))
                .url().toString();
    }

    /** How answers name an object: {@code s3://<bucket>/<key>}. */
    public String s3Path(String key) {
        return "s3://" + config.bucket() + "/" + key;
    }

    /**
     * The key a vendor names, if it is a well-formed key of this bucket in {@code clientId}'s own namespace; empty
     * for anything else (another vendor's key, another bucket, a malformed path), so callers answer all of these
     * exactly like a missing object. Spellings: {@code s3://<bucket>/<key>}, {@code <bucket>/<key>}, a bare key,
     * and any URL {@link #addresses(URI) addressing this store} (path-style, virtual-hosted, presigned or the CDN's).
     */
    public Optional<String> ownedKey(UUID clientId, String spelling) {
        return keyOf(spelling).filter(key -> VendorNamespace.owns(clientId, key));
    }

    /** The key of this bucket that {@code spelling} names (see {@link #ownedKey}), whoever owns it. */
    Optional<String> keyOf(String spelling) {
        if (spelling == null) {
            return Optional.empty();
        }
        String value = spelling.strip();
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            try {
                return keyOfUrl(new URI(value));
            } catch (URISyntaxException e) {
                return Optional.empty();
            }
        }
        String rest = lower.startsWith("s3://") ? value.substring(5) : value;
        rest = rest.startsWith("/") ? rest.substring(1) : rest;
        String bucketPrefix = config.bucket() + "/";
        if (rest.startsWith(bucketPrefix)) {
            return VendorNamespace.clean(rest.substring(bucketPrefix.length()));
        }
        return lower.startsWith("s3://") ? Optional.empty() : VendorNamespace.clean(rest);
    }

    /**
     * Whether {@code url} addresses this deployment's store: its endpoint (by name, or, for a configured endpoint, by
     * any name resolving to the endpoint's address and port), the bucket's virtual host, or the public base URL.
     * Blocking (may resolve host names).
     */
    public boolean addresses(URI url) {
        if (url.getHost() == null) {
            return false;
        }
        Optional<String> base = publicBase();
        if (base.isPresent() && url.toString().startsWith(base.get() + "/")) {
            return true;
        }
        return endpointMatch(url) != EndpointMatch.NONE;
    }

    private Optional<String> keyOfUrl(URI url) {
        Optional<String> base = publicBase();
        String text = url.toString();
        if (base.isPresent() && text.startsWith(base.get() + "/")) {
            String rawPath = text.substring(base.get().length() + 1).replaceFirst("[?#].*$", "");
            return decode(rawPath).flatMap(VendorNamespace::clean);
        }
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        return switch (endpointMatch(url)) {
            case PATH_STYLE -> decode(path).flatMap(decoded -> decoded.startsWith("/" + config.bucket() + "/")
                    ? VendorNamespace.clean(decoded.substring(config.bucket().length() + 2))
                    : Optional.empty());
            case VIRTUAL_HOST -> decode(path).filter(decoded -> decoded.startsWith("/"))
                    .flatMap(decoded -> VendorNamespace.clean(decoded.substring(1)));
            case NONE -> Optional.empty();
        };
    }

    private enum EndpointMatch {
        NONE, PATH_STYLE, VIRTUAL_HOST
    }

    private EndpointMatch endpointMatch(URI url) {
        String host = bare(url.getHost()).toLowerCase(Locale.ROOT);
        if (config.endpoint().isPresent()) {
            URI endpoint = config.endpoint().get();
            if (port(url) != port(endpoint)) {
                return EndpointMatch.NONE;
            }
            String endpointHost = bare(endpoint.getHost()).toLowerCase(Locale.ROOT);
            if (host.equals(config.bucket() + "." + endpointHost)) {
                return EndpointMatch.VIRTUAL_HOST;
            }
            return host.equals(endpointHost) || sameAddress(host, endpointHost)
                    ? EndpointMatch.PATH_STYLE
                    : EndpointMatch.NONE;
        }
        // AWS S3 itself: by name only (every bucket shares S3's addresses).
        String regional = "s3." + config.region() + ".amazonaws.com";
        if (host.equals(config.bucket() + ".s3.amazonaws.com") || host.equals(config.bucket() + "." + regional)) {
            return EndpointMatch.VIRTUAL_HOST;
        }
        return host.equals("s3.amazonaws.com") || host.equals(regional)
                ? EndpointMatch.PATH_STYLE
                : EndpointMatch.NONE;
    }

    private static boolean sameAddress(String host, String endpointHost) {
        try {
            InetAddress[] ours = InetAddress.getAllByName(endpointHost);
            InetAddress[] theirs = InetAddress.getAllByName(host);
            return Arrays.stream(theirs).anyMatch(address -> Arrays.asList(ours).contains(address));
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }

    private static Optional<String> decode(String rawPath) {
        try {
            return Optional.of(URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String bare(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static int port(URI uri) {
        return uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    private Optional<String> publicBase() {
        return config.publicBaseUrl().map(String::strip).filter(base -> !base.isEmpty())
                .map(base -> base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
    }

    private void ensureBucket() {
        if (bucketChecked || !config.createBucket()) {
            return;
        }
        try {
            s3.headBucket(request -> request.bucket(config.bucket()));
        } catch (NoSuchBucketException e) {
            LOG.infof("creating bucket %s", config.bucket());
            s3.createBucket(request -> request.bucket(config.bucket()));
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                throw e;
            }
            s3.createBucket(request -> request.bucket(config.bucket()));
        }
        bucketChecked = true;
    }
}
