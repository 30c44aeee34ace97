package io.pmedia.media.service;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.events.RenderJob;
import io.pmedia.media.MediaRequest;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;

/** Where a realtime request's objects are, as its status names them. */
final class RequestUrls {

    private RequestUrls() {
    }

    /** The key of the request's stream playlist, where the worker's publisher writes it. */
    static String streamKey(MediaRequest request) {
        return VendorNamespace.Kind.MEDIA.prefix(request.clientId) + request.id + "/" + RenderJob.STREAM_PLAYLIST;
    }

    /** The request's renditions with a URL for each, in the template's order; null when it has none. */
    static Map<String, String> renditions(ObjectMapper mapper, ObjectStore store, MediaRequest request) {
        if (request.renditions == null) {
            return null;
        }
        try {
            Map<String, String> urls = new LinkedHashMap<>();
            mapper.readValue(request.renditions, new TypeReference<LinkedHashMap<String, String>>() {
            }).forEach((name, key) -> urls.put(name, store.publicUrl(key)));
            return urls;
        } catch (IOException e) {
            throw new IllegalStateException("stored renditions of " + request.id + " are unreadable", e);
        }
    }
}
