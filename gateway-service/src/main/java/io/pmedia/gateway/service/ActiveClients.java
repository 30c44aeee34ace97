package io.pmedia.gateway.service;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.gateway.Client;
import io.smallrye.mutiny.Uni;

/**
 * Whether a client still exists, asked on every authenticated call so that a deleted client's tokens stop working.
 * A positive answer is reused for {@value #TTL_MILLIS} ms (one query per client per interval instead of one per call);
 * a delete through this replica evicts it at once, other replicas see it within the interval. Call inside a session.
 */
@ApplicationScoped
public class ActiveClients {

    static final long TTL_MILLIS = 2000;
    private static final int MAX_ENTRIES = 100_000;

    private final Map<UUID, Long> activeUntilNanos = new ConcurrentHashMap<>();

    public Uni<Boolean> isActive(UUID clientId) {
        Long until = activeUntilNanos.get(clientId);
        if (until != null && until - System.nanoTime() > 0) {
            return Uni.createFrom().item(true);
        }
        return Client.findActive(clientId).map(client -> {
            if (client == null) {
                activeUntilNanos.remove(clientId);
                return false;
            }
            if (activeUntilNanos.size() >= MAX_ENTRIES) {
                activeUntilNanos.clear();
            }
            activeUntilNanos.put(clientId, System.nanoTime() + TTL_MILLIS * 1_000_000);
            return true;
        });
    }

    /** Forgets a client at once (it was deleted). */
    public void evict(UUID clientId) {
        activeUntilNanos.remove(clientId);
    }
}
