package io.pmedia.storage;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where files live: an S3-compatible endpoint and bucket, and how their public URLs are made. */
@ConfigMapping(prefix = "pmedia.storage")
public interface StorageConfig {

    /** Empty: AWS S3 itself. Locally S3Proxy on http://127.0.0.1:9000. */
    Optional<URI> endpoint();

    @WithDefault("pmedia")
    String bucket();

    @WithDefault("us-east-1")
    String region();

    @WithDefault("local")
    String accessKey();

    @WithDefault("local-secret")
    String secretKey();

    /** Path-style addressing: what S3Proxy and MinIO need. */
    @WithDefault("true")
    boolean pathStyle();

    /** Lifetime of presigned GET URLs handed to vendors. */
    @WithDefault("24h")
    Duration presignTtl();

    /** When set, outputs are served as {@code <base>/<key>} (a CDN in front of the bucket) instead of presigned. */
    Optional<String> publicBaseUrl();

    /** Create the bucket at start-up when it is missing (local mode; production buckets are provisioned). */
    @WithDefault("true")
    boolean createBucket();
}
