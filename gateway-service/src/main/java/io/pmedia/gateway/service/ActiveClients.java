package io.pmedia.gateway.service;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.gateway.repository.ClientStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Whether a client still exists, asked on every authenticated call so that a deleted client's tokens stop working.
 * A positive answer is reused for {@value #TTL_MILLIS} ms (one query per client per interval instead of one per call);
 * a delete through this replica evicts it at once, other replicas see it within the interval.
 */
@ApplicationScoped
public class ActiveClients {

    static final long TTL_MILLIS = 2000;
    private static final int MAX_ENTRIES = 100_000;

    private final Map<UUID, Long> activeUntilNanos = new ConcurrentHashMap<>();
    private final ClientStore clients;

    public ActiveClients(ClientStore clients) {
        this.clients = clients;
    }

    /** Whether the client was confirmed active within the interval (no query). */
    public boolean knownActive(UUID clientId) {
        Long until = clientId == null ? null : activeUntilNanos.get(clientId);
        return until != null && until - System.nanoTime() > 0;
    }

    public Uni<Boolean> isActive(UUID clientId) {
        if (knownActive(clientId)) {
            return Uni.createFrom().item(true);
        }
        // programmatic: a client confirmed within the interval (above) is answered without a session
        return Panache.withSession(() -> clients.findActive(clientId)).map(client -> {
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
