package io.pmedia.media.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * media-service's role, {@code PMEDIA_MEDIA_ROLE} ({@code pmedia.media.role}): {@code api} serves the HTTP API,
 * consumes render results, sweeps and relays the outbox, but renders nothing; {@code worker} renders and runs nothing
 * else (no results consumer, no sweeps, no outbox relay); unset, one process does both (the local default). What each
 * role leaves out is the resource {@value #ROLES}, which deploy-checks reads too (each role's Kafka ACLs follow from
 * it), derived here once instead of in every deployment (deploy/k8s media-api, media-worker; the local stack's
 * media-worker-N).
 */
public class MediaRoleConfigSource implements ConfigSource {

    /** Above application.properties (250), below the environment (300): an explicit setting still wins. */
    private static final int ORDINAL = 260;
    /** What each role runs, one {@code <role>.<property>=<value>} line per component it leaves out. */
    static final String ROLES = "media-roles.properties";

    private final Map<String, String> properties;

    public MediaRoleConfigSource() {
        String role = System.getProperty("pmedia.media.role", System.getenv().getOrDefault("PMEDIA_MEDIA_ROLE", ""))
                .strip().toLowerCase(Locale.ROOT);
        this.properties = switch (role) {
            case "api", "worker" -> roleProperties(role);
            case "", "both" -> Map.of();
            default -> throw new IllegalArgumentException(
                    "PMEDIA_MEDIA_ROLE must be api, worker or both, not '" + role + "'");
        };
    }

    /** The lines of {@link #ROLES} that start with {@code <role>.}, without that prefix. */
    static Map<String, String> roleProperties(String role) {
        Properties all = new Properties();
        try (InputStream in = MediaRoleConfigSource.class.getClassLoader().getResourceAsStream(ROLES)) {
            if (in == null) {
                throw new IllegalStateException(ROLES + " is missing from the classpath");
            }
            all.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> properties = new TreeMap<>();
        String prefix = role + ".";
        for (String key : all.stringPropertyNames()) {
            if (key.startsWith(prefix)) {
                properties.put(key.substring(prefix.length()), all.getProperty(key).strip());
            }
        }
        return Map.copyOf(properties);
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
