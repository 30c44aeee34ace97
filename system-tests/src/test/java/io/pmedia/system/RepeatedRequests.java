package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * What a mutating operation answers when it is sent again, as its {@code x-pmedia-repeat} in docs/openapi.yaml says:
 * the same request twice in a row, {@value #AT_ONCE} identical at once, and {@value #AT_ONCE} conflicting at once
 * (the request with the field {@code vary} names changed, each differently). The outcomes:
 * <ul>
 * <li>{@code again}: {@code same} (a 2xx, with the same {@code id} when one is named: an idempotent replay),
 * {@code new} (a 2xx, a different {@code id}: every call makes a new resource), {@code conflict} (409 with the error
 * body), {@code gone} (404: the first call removed what the path names); a list names each outcome allowed.</li>
 * <li>{@code varied}: {@code conflict} (409 naming what exists), {@code new} (a 2xx, a new {@code id}),
 * {@code new-version} (a 2xx, the same {@code id}, a later {@code version}), {@code replaces} (a 2xx: the last one
 * stays).</li>
 * </ul>
 * Identical requests at once are sent for the operations whose repeat is {@code same} and that take a body (the
 * creates): they must all be the one resource. Never a 5xx. What a varied request changed is put back by sending the
 * original once more, so the walk goes on with the document's examples.
 */
final class RepeatedRequests {

    static final int AT_ONCE = 8;
    static final Set<String> AGAIN = Set.of("same", "new", "conflict", "gone");
    static final Set<String> VARIED = Set.of("conflict", "new", "new-version", "replaces");

    /** Sends the operation with {@code body} (null: none); answers {@code {"status": n, "body": ...}}. */
    @FunctionalInterface
    interface Sender {
        JsonNode send(JsonNode body) throws Exception;
    }

    private static final ExecutorService POOL = Executors.newFixedThreadPool(AT_ONCE);

    private RepeatedRequests() {
    }

    /** The outcomes {@code again} allows (a word or a list of words). */
    static List<String> outcomes(JsonNode rule) {
        JsonNode again = rule.path("again");
        List<String> outcomes = new ArrayList<>();
        if (again.isArray()) {
            again.forEach(outcome -> outcomes.add(outcome.asText()));
        } else if (again.isTextual()) {
            outcomes.add(again.asText());
        }
        return outcomes;
    }

    /**
     * Checks every repeat the rule names, after the operation's first answer {@code first}; the answers that made
     * something new (to be cleaned up by the caller).
     */
    static List<JsonNode> check(String id, JsonNode rule, JsonNode body, JsonNode first, Sender sender)
            throws Exception {
        List<String> again = outcomes(rule);
        String idPointer = rule.path("id").asText("");
        List<JsonNode> made = new ArrayList<>();
        JsonNode second = sender.send(body);
        expect(id + ", the same request again", again, idPointer, first, second);
        if (again.contains("new")) {
            made.add(second.path("body"));
        }
        if (again.contains("same") && body != null) {
            for (JsonNode answer : atOnce(IntStream.range(0, AT_ONCE).mapToObj(i -> body).toList(), sender)) {
                expect(id + ", " + AT_ONCE + " identical requests at once", again, idPointer, first, answer);
            }
        }
        String vary = rule.path("vary").asText("");
        if (!vary.isEmpty()) {
            assertThat(body.at(vary).isMissingNode()).as(id + ": x-pmedia-repeat varies " + vary + ", which the"
                    + " request example lacks").isFalse();
            String varied = rule.path("varied").asText();
            List<JsonNode> bodies = IntStream.range(0, AT_ONCE).mapToObj(i -> changed(body, vary, i + 1)).toList();
            for (JsonNode answer : atOnce(bodies, sender)) {
                String what = id + ", " + AT_ONCE + " requests at once with " + vary + " changed";
                assertThat(answer.path("status").asInt()).as(what + ": never a 5xx; " + answer).isLessThan(500);
                switch (varied) {
                    case "conflict" -> {
                        assertThat(answer.path("status").asInt()).as(what + ": " + answer).isEqualTo(409);
                        assertThat(answer.at("/body/code").asText()).as(what).isEqualTo("CONFLICT");
                    }
                    case "new" -> {
                        success(what, answer);
                        made.add(answer.path("body"));
                        if (!idPointer.isEmpty()) {
                            assertThat(answer.path("body").at(idPointer)).as(what).isNotEqualTo(first.at(idPointer));
                        }
                    }
                    case "new-version" -> {
                        success(what, answer);
                        assertThat(answer.path("body").at(idPointer)).as(what).isEqualTo(first.at(idPointer));
                        assertThat(answer.at("/body/version").asInt()).as(what + ": a later version")
                                .isGreaterThan(first.path("version").asInt());
                    }
                    case "replaces" -> success(what, answer);
                    default -> throw new AssertionError(id + ": x-pmedia-repeat varied '" + varied
                            + "' is none of " + VARIED);
                }
            }
            if (varied.equals("replaces") || varied.equals("new-version")) {
                success(id + ", the original once more", sender.send(body));
            }
        }
        return made;
    }

    private static void expect(String what, List<String> allowed, String idPointer, JsonNode first,
            JsonNode answer) {
        int status = answer.path("status").asInt();
        assertThat(status).as(what + ": never a 5xx; " + answer).isLessThan(500);
        List<String> problems = new ArrayList<>();
        for (String outcome : allowed) {
            String problem = switch (outcome) {
                case "same" -> status / 100 != 2
                        ? "not a 2xx"
                        : !idPointer.isEmpty() && !answer.path("body").at(idPointer).equals(first.at(idPointer))
                                ? idPointer + " differs from the first answer's " + first.at(idPointer)
                                : null;
                case "new" -> status / 100 != 2
                        ? "not a 2xx"
                        : !idPointer.isEmpty() && answer.path("body").at(idPointer).equals(first.at(idPointer))
                                ? idPointer + " is the first answer's"
                                : null;
                case "conflict" -> status == 409 && answer.at("/body/code").asText().equals("CONFLICT")
                        ? null
                        : "not a 409 CONFLICT";
                case "gone" -> status == 404 || status == 410 ? null : "not a 404";
                default -> "x-pmedia-repeat again '" + outcome + "' is none of " + AGAIN;
            };
            if (problem == null) {
                return;
            }
            problems.add(outcome + ": " + problem);
        }
        throw new AssertionError(what + " answered " + answer + ", which is none of " + allowed + " " + problems);
    }

    private static void success(String what, JsonNode answer) {
        assertThat(answer.path("status").asInt() / 100).as(what + ": " + answer).isEqualTo(2);
    }

    private static List<JsonNode> atOnce(List<JsonNode> bodies, Sender sender) {
        List<CompletableFuture<JsonNode>> sent = bodies.stream().map(body -> CompletableFuture.supplyAsync(() -> {
            try {
                return sender.send(body);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, POOL)).toList();
        return sent.stream().map(CompletableFuture::join).toList();
    }

    /** The body with the value at {@code pointer} changed in the {@code n}th way. */
    static JsonNode changed(JsonNode body, String pointer, int n) {
        ObjectNode copy = body.deepCopy();
        String parent = pointer.substring(0, pointer.lastIndexOf('/'));
        String field = pointer.substring(pointer.lastIndexOf('/') + 1);
        ObjectNode holder = (ObjectNode) (parent.isEmpty() ? copy : copy.at(parent));
        JsonNode value = holder.get(field);
        if (value.isNumber()) {
            holder.set(field, IntNode.valueOf(value.asInt() + n));
        } else {
            String text = value.asText();
            try {
                holder.set(field, TextNode.valueOf(
                        OffsetDateTime.parse(text).plusDays(n).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)));
            } catch (DateTimeParseException e) {
                holder.set(field, TextNode.valueOf(text + "-" + n));
            }
        }
        return copy;
    }
}
