/// Placeholder until the timeline lands.
enum TimelinePlaceholder {}
