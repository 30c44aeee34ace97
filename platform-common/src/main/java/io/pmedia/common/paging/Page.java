package io.pmedia.common.paging;

import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** One page of a list: {@code {"items": [...], "next-cursor": "<opaque>" | null}}, newest first. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Page<T>(List<T> items, @JsonProperty("next-cursor") String nextCursor) {

    /** The same page with every item turned into what the API shows. */
    public <R> Page<R> map(Function<T, R> view) {
        return new Page<>(items.stream().map(view).toList(), nextCursor);
    }
}
