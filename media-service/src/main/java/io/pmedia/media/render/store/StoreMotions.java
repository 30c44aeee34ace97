package io.pmedia.media.render.store;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.storage.ObjectStore;

/**
 * The Lottie files behind the motion names of lottie layers, fetched from the object store and cached on the local
 * disk by object key (a name keeps its file within its owner, so a cached file is never stale): the rendering
 * vendor's own motion ({@code motions/<client-id>/<name>}) before a shared one ({@code motions/shared/<name>}) in the
 * vendor's own templates, the shared one only in a shared template. Thread-safe.
 */
@ApplicationScoped
public class StoreMotions {

    /** A motion's name: what the catalog registers and a template names. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final String PREFIX = "motions/";
    /** Where the shared motions live: no client id is this word. */
    private static final String SHARED = "shared";

    private final ObjectStore store;
    private final Path cache;

    public StoreMotions(ObjectStore store, MediaConfig config) {
        this.store = store;
        this.cache = config.workDir().resolve("motion-cache");
    }

    /**
     * The local file of motion {@code name} as a template of {@code owner} names it: the owner's own, else the shared
     * one; a shared template's ({@code owner} null) is the shared one only, whoever renders it, so that a vendor's
     * motion of the same name never stands in for it (docs/templates.md, "Motions").
     *
     * @throws RenderException when neither is registered
     */
    public Path file(UUID owner, String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new RenderException("motion '" + name + "' is not registered");
        }
        return (owner == null ? Optional.<Path>empty() : fetched(key(owner, name)))
                .or(() -> fetched(key(null, name)))
                .orElseThrow(() -> new RenderException("motion '" + name + "' is not registered"));
    }

    /** The object key of motion {@code name} of {@code owner} (null: shared), where the catalog stores it. */
    public static String key(UUID owner, String name) {
        return PREFIX + (owner == null ? SHARED : owner.toString()) + "/" + name;
    }

    /**
     * Every motion {@code video} names, fetched, under {@link ResolvedVideo.Lottie#fileKey} in {@code files} (beside
     * the assets, where the engine finds them); {@code owner}: the template's, as {@link #file}.
     */
    public void fetchInto(ResolvedVideo video, UUID owner, Map<String, Path> files) {
        for (String motion : video.motions()) {
            files.put(ResolvedVideo.Lottie.fileKey(motion), file(owner, motion));
        }
    }

    private Optional<Path> fetched(String key) {
        return CachedObjects.local(store, key, cache.resolve(key.substring(PREFIX.length()).replace('/', '_')
                + ".json"));
    }
}
