package io.pmedia.testing.arch.other;

/** Stands for another service's class. */
public class OtherService {
}
