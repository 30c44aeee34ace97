package io.pmedia.media.config;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * media-service's role, {@code PMEDIA_MEDIA_ROLE} ({@code pmedia.media.role}): {@code api} serves the HTTP API and
 * consumes render results but renders nothing; {@code worker} renders and consumes no results (the API's business);
 * unset, one process does both (the local default). The role only switches Kafka consumers, so it is configuration
 * for the messaging layer, derived here once instead of in every deployment (deploy/k8s media-api, media-worker; the
 * local stack's media-worker-N).
 */
public class MediaRoleConfigSource implements ConfigSource {

    /** Above application.properties (250), below the environment (300): an explicit setting still wins. */
    private static final int ORDINAL = 260;

    private final Map<String, String> properties;

    public MediaRoleConfigSource() {
        String role = System.getProperty("pmedia.media.role", System.getenv().getOrDefault("PMEDIA_MEDIA_ROLE", ""))
                .strip().toLowerCase(Locale.ROOT);
        this.properties = switch (role) {
            case "api" -> Map.of("pmedia.media.render.lanes.enabled", "false");
            case "worker" -> Map.of("mp.messaging.incoming.render-results-in.enabled", "false",
                    "pmedia.share.sweep-enabled", "false");
            case "", "both" -> Map.of();
            default -> throw new IllegalArgumentException(
                    "PMEDIA_MEDIA_ROLE must be api, worker or both, not '" + role + "'");
        };
    }

    @Override
    public Map<String, String> getProperties() {
        return properties;
    }

    @Override
    public Set<String> getPropertyNames() {
        return properties.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return properties.get(propertyName);
    }

    @Override
    public String getName() {
        return "pmedia media role";
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }
}
