"""The application: settings, storage, the game service, scheduler, shared UI."""
