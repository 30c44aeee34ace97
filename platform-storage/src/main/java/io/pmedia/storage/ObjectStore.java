package io.pmedia.storage;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The bucket of this deployment. Blocking (the AWS SDK's synchronous client): call it from worker threads.
 * Vendors get files through {@link #publicUrl(String)}: a presigned GET, or a CDN URL when one is configured.
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

    /** Opens an object for reading; empty when it does not exist. The caller closes the stream. */
    public Optional<InputStream> open(String key) {
        return open(config.bucket(), key);
    }

    /** Opens an object of any bucket these credentials can read (vendors' input files); empty when absent. */
    public Optional<InputStream> open(String bucket, String key) {
        try {
            ResponseInputStream<GetObjectResponse> stream = s3.getObject(request -> request.bucket(bucket).key(key));
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

    /** Size in bytes, or empty when the object does not exist. */
    public Optional<Long> size(String key) {
        return size(config.bucket(), key);
    }

    /** Size in bytes of an object of any bucket these credentials can read, or empty when it does not exist. */
    public Optional<Long> size(String bucket, String key) {
        try {
            HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key));
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

    /** The URL a vendor downloads {@code key} from. */
    public String publicUrl(String key) {
        if (config.publicBaseUrl().isPresent() && !config.publicBaseUrl().get().isBlank()) {
            String base = config.publicBaseUrl().get();
            return (base.endsWith("/") ? base : base + "/") + key;
        }
        return presigner.presignGetObject(request -> request
                .signatureDuration(config.presignTtl())
                .getObjectRequest(get -> get.bucket(config.bucket()).key(key)))
                .url().toString();
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
