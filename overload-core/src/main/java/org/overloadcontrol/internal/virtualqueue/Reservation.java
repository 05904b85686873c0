package org.overloadcontrol.internal.virtualqueue;

/**
 * A place in the {@link SlotSchedule}: the request may reach the server {@code waitSeconds}
 * from now, with {@code position} requests (itself included) scheduled up to its slot.
 * {@link #FULL} means no slot within the maximum wait had room.
 */
record Reservation(int waitSeconds, long position) {

  /** No slot within the maximum wait had room. */
  public static final Reservation FULL = new Reservation(-1, -1);

  /** Whether a slot was found. */
  public boolean granted() {
    return waitSeconds >= 0;
  }
}
