"""The administration service, `services().administration`: one module per concept, `facade` joins them."""
