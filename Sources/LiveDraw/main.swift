print("live-draw")
