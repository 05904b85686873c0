package org.overloadcontrol.internal.base;

import java.util.Objects;
import org.overloadcontrol.base.RequestKind;

/**
 * The engine's definition of a request class: its name, its rank (higher is more important), its
 * kind and its utility, as configuration (or an annotation) defines it. Users name a class with
 * the {@link org.overloadcontrol.annotation.RequestClass} annotation or a {@code classes.<name>}
 * key; the engine works with this definition.
 *
 * <p>The rank orders classes for the multiclass admission controller (Welsh &amp; Culler 2003,
 * §3.3): when a class misses its target, classes of lower rank are cut first. Kind and utility
 * drive the LIFO-Pri wait-queue discipline (Singhmar et al. 2004, Algorithm 1 and Table 3).
 */
public final class ClassDefinition implements Comparable<ClassDefinition> {

  /** The name of the class given to requests that no rule or annotation classifies. */
  public static final String DEFAULT_NAME = "default";

  private final String name;
  private final int rank;
  private final RequestKind kind;
  private final double utility;

  public ClassDefinition(String name, int rank, RequestKind kind, double utility) {
    this.name = Objects.requireNonNull(name, "name");
    this.rank = rank;
    this.kind = Objects.requireNonNull(kind, "kind");
    if (!(utility >= 0) || Double.isInfinite(utility)) {
      throw new IllegalArgumentException("utility must be a finite number >= 0, was " + utility);
    }
    this.utility = utility;
  }

  /** The class used when nothing else applies: rank 0, browsing, utility 1. */
  public static ClassDefinition defaultClass() {
    return new ClassDefinition(DEFAULT_NAME, 0, RequestKind.BROWSING, 1.0);
  }

  public String name() {
    return name;
  }

  public int rank() {
    return rank;
  }

  public RequestKind kind() {
    return kind;
  }

  public double utility() {
    return utility;
  }

  /** Orders by rank, highest first, then by name, so iteration order is deterministic. */
  @Override
  public int compareTo(ClassDefinition other) {
    int byRank = Integer.compare(other.rank, rank);
    return byRank != 0 ? byRank : name.compareTo(other.name);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClassDefinition c
        && c.name.equals(name)
        && c.rank == rank
        && c.kind == kind
        && c.utility == utility;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, rank, kind, utility);
  }

  @Override
  public String toString() {
    return name
        + "(rank "
        + rank
        + ", "
        + kind.name().toLowerCase(java.util.Locale.ROOT)
        + ", utility "
        + utility
        + ")";
  }
}
