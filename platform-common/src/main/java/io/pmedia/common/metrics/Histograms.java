package io.pmedia.common.metrics;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * Histogram buckets for the HTTP server's request timer of every service, so that Prometheus can compute latency
 * quantiles across replicas (the dashboard's and the alerts' {@code histogram_quantile} over
 * {@code http_server_requests_seconds_bucket}); a per-replica percentile cannot be aggregated.
 */
public class Histograms {

    @Produces
    @Singleton
    MeterFilter httpServerHistograms() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (id.getName().equals("http.server.requests")) {
                    return DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config);
                }
                return config;
            }
        };
    }
}
