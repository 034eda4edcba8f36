enum AudioIOPlaceholder {}
