package io.pmedia.batch.service;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.events.RenderInput;

/**
 * What each column of an input file means for the task's template (docs/batch.md, "The input file"): {@code user-id};
 * a personalization field the template declares (matched without regard to case, passed under the template's own
 * spelling); an asset slot ({@code image-url}, {@code image-url-2}, ... {@code video-url...}, {@code icon-url...}) the
 * template has; or nothing the template uses, which is ignored and named once in the task's message.
 */
public final class Columns {

    public static final String USER_ID = "user-id";
    private static final Pattern ASSET = Pattern.compile("(image|video|icon)-url(?:-([1-9][0-9]?))?");

    /** What one column feeds: a field (by its template name) or an asset slot (kind, 0-based index). */
    private record Use(String field, String kind, int slot) {
    }

    private final List<String> names;
    private final Use[] uses;
    private final int userId;
    private final Map<String, Integer> slotCounts;
    private final List<String> unused = new ArrayList<>();

    private Columns(List<String> names, JsonNode template) {
        this.names = names;
        Map<String, String> fields = new HashMap<>();
        for (JsonNode field : template.path("fields")) {
            String name = field.path("name").asText("");
            if (!name.isEmpty()) {
                fields.put(name.toLowerCase(Locale.ROOT), name);
            }
        }
        JsonNode assets = template.path("assets");
        slotCounts = Map.of("images", assets.path("images").size(), "videos", assets.path("videos").size(),
                "icons", assets.path("icons").size());
        uses = new Use[names.size()];
        int user = -1;
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            Matcher asset = ASSET.matcher(name);
            if (name.equals(USER_ID)) {
                user = i;
            } else if (fields.containsKey(name)) {
                uses[i] = new Use(fields.get(name), null, -1);
            } else if (asset.matches()) {
                String kind = asset.group(1) + "s";
                int slot = asset.group(2) == null ? 0 : Integer.parseInt(asset.group(2)) - 1;
                if (slot < slotCounts.get(kind)) {
                    uses[i] = new Use(null, kind, slot);
                } else {
                    unused.add(name);
                }
            } else {
                unused.add(name);
            }
        }
        this.userId = user;
    }

    /** The meaning of {@code names} (an input file's header) for {@code template} (its definition). */
    public static Columns of(List<String> names, JsonNode template) {
        return new Columns(names, template);
    }

    /** Columns the template does not use, in file order. */
    public List<String> unused() {
        return List.copyOf(unused);
    }

    public String userId(List<String> cells) {
        return userId < cells.size() ? cells.get(userId).strip() : "";
    }

    /**
     * A record's render input: each used column's cell, stripped; an empty cell is an absent field or slot (the
     * template's default applies). Every value is text, whatever it looks like ({@code 42}, {@code true}).
     */
    public RenderInput input(List<String> cells) {
        Map<String, String> fields = new LinkedHashMap<>();
        Map<String, String[]> slots = new HashMap<>();
        for (int i = 0; i < cells.size() && i < uses.length; i++) {
            Use use = uses[i];
            String value = cells.get(i).strip();
            if (use == null || value.isEmpty()) {
                continue;
            }
            if (use.field() != null) {
                fields.put(use.field(), value);
            } else {
                slots.computeIfAbsent(use.kind(), kind -> new String[slotCounts.get(kind)])[use.slot()] = value;
            }
        }
        return new RenderInput(fields, urls(slots.get("images")), urls(slots.get("videos")), urls(slots.get("icons")),
                null, null);
    }

    /** Slots up to the last one given; a slot left out in between is {@code ""} (empty: its default applies). */
    private static List<String> urls(String[] slots) {
        if (slots == null) {
            return null;
        }
        int last = slots.length - 1;
        while (last >= 0 && slots[last] == null) {
            last--;
        }
        List<String> urls = new ArrayList<>(last + 1);
        for (int i = 0; i <= last; i++) {
            urls.add(slots[i] == null ? "" : slots[i]);
        }
        return urls;
    }

    /** The header's names, as read. */
    public List<String> names() {
        return names;
    }
}
