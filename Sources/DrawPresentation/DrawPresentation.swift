import DrawCore
