package io.pmedia.gateway.service;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Fields;
import io.pmedia.gateway.Client;

/**
 * A vendor's share page settings as the operator sets them ({@code sharing} of {@code POST/PATCH /admin/clients};
 * docs/sharing.md): {@code retention-days}, {@code logo-url}, {@code color} and {@code embed-origins}. A key present
 * with null clears it; an absent key leaves it as it is.
 */
final class SharingRules {

    static final Set<String> KEYS = Set.of("retention-days", "logo-url", "color", "embed-origins");
    private static final int MAX_ORIGINS = 20;
    private static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}");

    private SharingRules() {
    }

    /** Checks {@code sharing} and applies it to {@code client}; the checks run before any transaction. */
    static java.util.function.Consumer<Client> parse(JsonNode sharing) {
        if (sharing == null || sharing.isNull()) {
            return client -> {
            };
        }
        Fields.onlyKnown(sharing, KEYS);
        List<java.util.function.Consumer<Client>> changes = new ArrayList<>();
        if (sharing.has("retention-days")) {
            JsonNode days = sharing.get("retention-days");
            if (!days.isNull() && (!days.canConvertToInt() || !days.isIntegralNumber() || days.asInt() < 1
                    || days.asInt() > 3650)) {
                throw ApiException.validation("field 'sharing.retention-days' must be a whole number of days, 1 to"
                        + " 3650, or null");
            }
            Integer value = days.isNull() ? null : days.asInt();
            changes.add(client -> client.shareRetentionDays = value);
        }
        if (sharing.has("logo-url")) {
            String url = text(sharing, "logo-url");
            if (url != null && !isHttpUrl(url)) {
                throw ApiException.validation("field 'sharing.logo-url' must be an http(s) URL of at most 2000"
                        + " characters");
            }
            changes.add(client -> client.brandLogoUrl = url);
        }
        if (sharing.has("color")) {
            String color = text(sharing, "color");
            if (color != null && !COLOR.matcher(color).matches()) {
                throw ApiException.validation("field 'sharing.color' must be a colour #rrggbb");
            }
            changes.add(client -> client.brandColor = color);
        }
        if (sharing.has("embed-origins")) {
            List<String> origins = origins(sharing.get("embed-origins"));
            changes.add(client -> client.embedOrigins = String.join(" ", origins));
        }
        return client -> changes.forEach(change -> change.accept(client));
    }

    /** {@code https://shop.example} or {@code http://host:port}: a scheme, a host and a port, nothing else. */
    private static List<String> origins(JsonNode value) {
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray() || value.size() > MAX_ORIGINS) {
            throw ApiException.validation("field 'sharing.embed-origins' must be a list of at most " + MAX_ORIGINS
                    + " origins");
        }
        List<String> origins = new ArrayList<>();
        for (Iterator<JsonNode> items = value.elements(); items.hasNext();) {
            JsonNode item = items.next();
            String origin = item.isTextual() ? item.asText().strip() : "";
            URI uri = uri(origin);
            if (uri == null || !List.of("http", "https").contains(String.valueOf(uri.getScheme()))
                    || uri.getHost() == null || uri.getRawPath() != null && !uri.getRawPath().isEmpty()
                    || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
                throw ApiException.validation("field 'sharing.embed-origins' holds '" + abbreviate(origin)
                        + "', which is not an origin like https://shop.example");
            }
            origins.add(origin.toLowerCase(Locale.ROOT));
        }
        return List.copyOf(origins);
    }

    private static boolean isHttpUrl(String value) {
        URI uri = uri(value);
        return value.length() <= 2000 && uri != null && List.of("http", "https").contains(String.valueOf(
                uri.getScheme()).toLowerCase(Locale.ROOT)) && uri.getHost() != null;
    }

    private static URI uri(String value) {
        try {
            return new URI(value);
        } catch (URISyntaxException e) {
            return null;
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest("field 'sharing." + field + "' has the wrong type: expected a string");
        }
        return value.asText().strip();
    }

    private static String abbreviate(String text) {
        return text.length() > 80 ? text.substring(0, 80) + "..." : text;
    }
}
