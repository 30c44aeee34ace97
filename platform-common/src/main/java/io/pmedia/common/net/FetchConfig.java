package io.pmedia.common.net;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the safe fetcher shared by every service that dials a vendor-supplied URL. */
@ConfigMapping(prefix = "pmedia.fetch")
public interface FetchConfig {

    /**
     * Networks the fetcher may reach although the address policy refuses them (CIDRs or addresses). Empty in
     * production; local mode allows loopback so that webhooks and assets on 127.0.0.1 work.
     */
    Optional<List<String>> allowedNetworks();

    @WithDefault("pmedia/1.0 (+https://pmedia.io)")
    String userAgent();

    @WithDefault("10s")
    Duration connectTimeout();

    @WithDefault("200")
    int maxConnections();
}
