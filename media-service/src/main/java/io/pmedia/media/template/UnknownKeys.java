package io.pmedia.media.template;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Finds keys of a JSON document that the records it is read into do not have. The service's JSON reading
 * tolerates unknown keys (vendors may send newer fields), but a template is written by hand once and rendered many
 * times: a misspelt {@code fade_in} that silently does nothing is worth a message.
 */
final class UnknownKeys {

    private UnknownKeys() {
    }

    static void find(JsonNode node, Class<?> recordType, String path, List<String> problems) {
        if (!node.isObject() || !recordType.isRecord()) {
            return;
        }
        Map<String, Type> properties = properties(recordType);
        Iterator<Map.Entry<String, JsonNode>> entries = node.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            String at = path.isEmpty() ? entry.getKey() : path + "." + entry.getKey();
            Type type = properties.get(entry.getKey());
            if (type == null) {
                String dashed = entry.getKey().replace('_', '-');
                problems.add(at + ": unknown key" + (properties.containsKey(dashed)
                        ? " (did you mean '" + dashed + "'?)"
                        : ""));
            } else {
                descend(entry.getValue(), type, at, problems);
            }
        }
    }

    private static void descend(JsonNode node, Type type, String path, List<String> problems) {
        if (type instanceof Class<?> c && c.isRecord()) {
            find(node, c, path, problems);
        } else if (type instanceof ParameterizedType p && p.getRawType() == List.class && node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                descend(node.get(i), p.getActualTypeArguments()[0], path + "[" + i + "]", problems);
            }
        }
    }

    private static Map<String, Type> properties(Class<?> recordType) {
        Map<String, Type> properties = new LinkedHashMap<>();
        for (RecordComponent component : recordType.getRecordComponents()) {
            JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
            String name = renamed != null && !renamed.value().isEmpty() ? renamed.value() : component.getName();
            properties.put(name, component.getGenericType());
        }
        return properties;
    }
}
