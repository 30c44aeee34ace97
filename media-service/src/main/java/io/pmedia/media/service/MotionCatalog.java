package io.pmedia.media.service;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.repository.CreateLock;
import io.pmedia.graphics.lottie.LottieException;
import io.pmedia.graphics.lottie.LottieFile;
import io.pmedia.media.RegisteredMotion;
import io.pmedia.media.render.store.StoreMotions;
import io.pmedia.media.repository.MotionStore;
import io.pmedia.media.template.MotionFacts;
import io.pmedia.storage.ObjectStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;

/**
 * Lottie files registered for templates' lottie layers (contracts.md, 2026-11-29): a vendor's own
 * ({@code POST /motions}) or shared by every template ({@code POST /admin/motions}). A file is parsed and checked by
 * the graphics engine ({@link LottieFile#check}: limits, a 400 naming the JSON pointer of what is malformed, warnings
 * for what the engine will not draw), stored in the object store under its owner's prefix
 * ({@code motions/<client-id>/<name>}, {@code motions/shared/<name>}) and listed in PostgreSQL. A name keeps its file
 * within its owner: the same file again changes nothing, another file under a registered name is a conflict.
 */
@ApplicationScoped
public class MotionCatalog {

    public record Registered(RegisteredMotion motion, MotionFacts facts, boolean created) {
    }

    private final MotionStore motions;
    private final ObjectStore store;
    private final ObjectMapper mapper;

    public MotionCatalog(MotionStore motions, ObjectStore store, ObjectMapper mapper) {
        this.motions = motions;
        this.store = store;
        this.mapper = mapper;
    }

    /** A checked file. */
    private record Parsed(byte[] bytes, MotionFacts facts, String sha256) {
    }

    /**
     * Registers {@code lottie} as motion {@code name} of {@code owner} (null: shared): 201 new, 200 the same file
     * again, 409 another file under that name, 400 naming what is wrong otherwise.
     */
    public Uni<Registered> register(UUID owner, String name, JsonNode lottie) {
        if (name == null || !StoreMotions.NAME.matcher(name).matches()) {
            throw ApiException.validation("name: required; lower-case letters, digits and '-', at most 64");
        }
        if (lottie == null || !lottie.isObject()) {
            throw ApiException.validation("lottie: required, the Lottie (Bodymovin) JSON of the animation as an"
                    + " object");
        }
        String key = StoreMotions.key(owner, name);
        // Registrations of one name take turns (CreateLock) from the look-up to the commit: a second file under the
        // name meets the first's row (409) and never overwrites the first's object in the store.
        // programmatic: the animation is parsed off the event loop before the transaction, not inside it
        return Blocking.offload(() -> parse(lottie))
                .flatMap(parsed -> Panache.withTransaction(() -> CreateLock.take("motion", key)
                        .flatMap(locked -> motions.find(owner, name))
                        .flatMap(existing -> existing != null
                                ? Uni.createFrom().item(same(existing, parsed))
                                : Blocking.offload(() -> store.put(key, parsed.bytes(), "application/json"))
                                        .flatMap(stored -> persist(owner, name, key, parsed)))));
    }

    /** The motions of {@code owner} (null: the shared ones). */
    @WithSession
    public Uni<List<Registered>> all(UUID owner) {
        return motions.all(owner)
                .map(all -> all.stream().map(m -> new Registered(m, facts(m), false)).toList());
    }

    /**
     * What a template of {@code owner} (null: a shared template) may name in its lottie layers, by name: the vendor's
     * own motions before the shared ones. In the caller's reactive session.
     */
    public Uni<Map<String, MotionFacts>> usableBy(UUID owner) {
        return motions.usableBy(owner).map(all -> {
            Map<String, MotionFacts> byName = new LinkedHashMap<>();
            all.forEach(motion -> byName.putIfAbsent(motion.name, facts(motion)));
            return byName;
        });
    }

    private MotionFacts facts(RegisteredMotion motion) {
        try {
            return mapper.readValue(motion.facts, MotionFacts.class);
        } catch (IOException e) {
            throw new IllegalStateException("stored motion " + motion.name + " has unreadable facts", e);
        }
    }

    private Uni<Registered> persist(UUID owner, String name, String key, Parsed parsed) {
        RegisteredMotion motion = new RegisteredMotion();
        motion.id = UUID.randomUUID();
        motion.owner = owner;
        motion.name = name;
        motion.objectKey = key;
        motion.sha256 = parsed.sha256();
        motion.sizeBytes = parsed.bytes().length;
        try {
            motion.facts = mapper.writeValueAsString(parsed.facts());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        motion.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return motion.<RegisteredMotion>persist().map(saved -> new Registered(saved, parsed.facts(), true));
    }

    private Registered same(RegisteredMotion existing, Parsed parsed) {
        if (!existing.sha256.equals(parsed.sha256())) {
            throw ApiException.conflict("motion '" + existing.name
                    + "' is registered with another file; register this one under a new name");
        }
        return new Registered(existing, facts(existing), false);
    }

    private Parsed parse(JsonNode lottie) {
        byte[] bytes;
        try {
            bytes = mapper.writeValueAsBytes(lottie);
        } catch (IOException e) {
            throw ApiException.validation("lottie: not writable as JSON");
        }
        try {
            return new Parsed(bytes, MotionFacts.of(LottieFile.check(bytes)), Canonical.sha256(bytes));
        } catch (LottieException e) {
            throw ApiException.validation("lottie at " + (e.pointer().isEmpty() ? "/" : e.pointer()) + ": "
                    + e.getMessage());
        }
    }
}
