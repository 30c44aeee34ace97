package io.pmedia.vton;

/** The status values of a try-on request (interface 3.3 shows SUCCESS; docs/vton.md defines the rest). */
public enum TryOnStatus {
    PROCESSING, SUCCESS, FAILURE
}
